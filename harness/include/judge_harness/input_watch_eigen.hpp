// InputWatch for the Eigen arguments a learner receives by const reference
// (kv_cache's q, k and v, speculative_decoding's probability tables).
#pragma once

#include <judge_harness/input_watch.hpp>

#include <Eigen/Dense>

namespace judge_harness {

template <class EigenObject>
WatchedNumbers read_eigen(const void* argument) {
  const EigenObject& object = *static_cast<const EigenObject*>(argument);
  WatchedNumbers numbers;
  numbers.matrix = EigenObject::ColsAtCompileTime != 1;
  numbers.rows = static_cast<long>(object.rows());
  numbers.cols = static_cast<long>(object.cols());
  numbers.data.reserve(static_cast<std::size_t>(object.size()));
  for (Eigen::Index r = 0; r < object.rows(); ++r)
    for (Eigen::Index c = 0; c < object.cols(); ++c) numbers.data.push_back(object(r, c));
  return numbers;
}

// A watch on an Eigen vector or matrix for the length of a call.
template <class EigenObject>
InputWatch watch_eigen(const char* name, const EigenObject& object) {
  return InputWatch(name, &object, read_eigen<EigenObject>);
}

}  // namespace judge_harness
