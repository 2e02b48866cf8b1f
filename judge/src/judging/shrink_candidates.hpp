// Smaller and simpler versions of a case's input, driven by the types its op
// declares (problem.yaml `ops:`), so that every problem's inputs can be
// shrunk without code of its own: lists lose entries (halves first, then
// smaller chunks), matrices lose rows together (the steps of q, k and v)
// and columns together, integers get smaller, numbers simpler (0, 1, -1,
// 0.5, small integers; -inf replaced only when the failure survives it),
// `any` values (toy models) shrink member by member. Two structures need
// more than types: attention heads (inputs n_heads, n_kv_heads, head_dim
// beside matrices q, k, v), whose columns must shrink a head at a time; and
// the axes an op declares (`shrink:`, SharedAxis in package/problem.hpp), a
// vocabulary or a round's drafts, whose indices are dropped from every
// input that holds them at once, ids renumbered, distributions renormalized.
//
// Candidates may break the problem's contract (a table model whose rows no
// longer sum to 1, a capacity below the steps); the caller checks each
// against the reference before the learner sees it (shrink.hpp).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

#include "package/problem.hpp"

namespace judge {

// Calls `consider(candidate)` with smaller or simpler versions of `input`
// (a map of `op`'s inputs), the biggest cuts first; stops as soon as
// `consider` returns true (the candidate was taken) and returns true, or
// returns false once there are no more. Inputs the judge supplies (seed,
// seeds), booleans and strings are left alone. Candidates are made one at
// a time: a list of 131,072 numbers has that many one-entry cuts.
bool for_each_candidate(const Operation& op, const nlohmann::json& input,
                        const std::function<bool(const nlohmann::json&)>& consider);

// How much smaller `after` is than `before` (inputs of `op`), naming what
// changed in size: "logits 131,072 -> 3 entries, k 40 -> 1", "q 12x32 ->
// 1x4"; empty when no size changed (only values got simpler).
std::string size_change(const Operation& op, const nlohmann::json& before, const nlohmann::json& after);

}  // namespace judge
