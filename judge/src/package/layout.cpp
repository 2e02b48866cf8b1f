// Package paths and finding a problem by slug.
#include "package/layout.hpp"

#include <algorithm>
#include <filesystem>

namespace judge {
namespace fs = std::filesystem;

Package package_of(const Paths& paths, const std::string& slug) {
  Package package;
  package.slug = slug;
  const fs::path problem = fs::path(paths.problems_dir) / slug;
  const fs::path solutions = fs::path(paths.solutions_dir) / slug;
  package.problem_dir = problem.string();
  package.spec_file = (problem / "problem.yaml").string();
  package.stub = (problem / "stub.hpp").string();
  package.hidden_dir = (problem / "hidden").string();
  package.solutions_dir = solutions.string();
  package.reference = (solutions / "reference.hpp").string();
  package.solutions_index = (solutions / "solutions.yaml").string();
  package.explanation = (solutions / "explanation.md").string();
  package.adapter = (fs::path(paths.adapters_dir) / (slug + ".cpp")).string();
  package.learner_bindings = (fs::path(paths.adapters_dir) / (slug + ".learner.hpp")).string();
  return package;
}

bool is_problem(const Paths& paths, const std::string& slug) {
  if (slug.empty() || slug.find('/') != std::string::npos || slug == "." || slug == "..") return false;
  std::error_code error;
  return fs::is_regular_file(package_of(paths, slug).spec_file, error);
}

std::vector<std::string> problem_slugs(const std::string& problems_dir) {
  std::vector<std::string> slugs;
  std::error_code error;
  for (auto it = fs::directory_iterator(problems_dir, error); !error && it != fs::directory_iterator();
       it.increment(error))
    if (fs::is_regular_file(it->path() / "problem.yaml")) slugs.push_back(it->path().filename().string());
  std::sort(slugs.begin(), slugs.end());
  return slugs;
}

}  // namespace judge
