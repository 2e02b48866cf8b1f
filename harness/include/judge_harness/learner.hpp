// How an adapter reaches the learner's functions when the two are compiled
// apart. A package's harness/problems/SLUG.learner.hpp includes this header
// first, then the problem's own headers, then the solution (only where
// JUDGE_SOLUTION is defined), then names each function the adapter calls:
//
//   JUDGE_LEARNER_FUNCTION(top_p_probs, std::vector<double>(const std::vector<double>&, double));
//
// The judge compiles that file twice:
//   - with the adapter, once per problem (the adapter includes it as
//     `#include JUDGE_LEARNER_BINDINGS`, so a package copied under another
//     name keeps compiling): each line declares the pointer
//     judge_learner::top_p_probs, which the adapter calls;
//   - alone with JUDGE_SOLUTION defined, once per submission: each line
//     defines that pointer as the address of the learner's function. A
//     function of another signature does not convert, so it is a compile
//     error that the judge explains, as the contract asks.
// The learner's file is then all that is compiled per submission; the
// adapter's operations are an object file built once.
#pragma once

// First, so that the channel is claimed before the solution's static
// initializers run (see runner.hpp).
#include <judge_harness/runner.hpp>

#ifdef JUDGE_SOLUTION
// The address is taken at global scope, by the name alone, so that a
// misspelt or missing function reads as the compiler's "not declared in this
// scope; did you mean ...?" about the learner's own names.
#define JUDGE_LEARNER_FUNCTION(name, ...)                                             \
  using judge_learner_##name##_signature = __VA_ARGS__;                               \
  constexpr judge_learner_##name##_signature* judge_learner_##name##_address = &name; \
  namespace judge_learner {                                                           \
  extern judge_learner_##name##_signature* const name;                                \
  judge_learner_##name##_signature* const name = judge_learner_##name##_address;      \
  }                                                                                   \
  static_assert(true, "a semicolon follows")
#else
#define JUDGE_LEARNER_FUNCTION(name, ...)               \
  using judge_learner_##name##_signature = __VA_ARGS__; \
  namespace judge_learner {                             \
  extern judge_learner_##name##_signature* const name;  \
  }                                                     \
  static_assert(true, "a semicolon follows")
#endif
