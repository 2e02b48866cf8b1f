// Duplicate keys in a YAML mapping. yaml-cpp keeps both entries and a
// lookup finds the first, so a second `tolerance:` in a problem file would
// be read as if it were not there. They are found by a walk over the
// loaded document, before anything reads it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace judge {

// Throws SpecError "PLACE:LINE:COLUMN: duplicate key 'KEY' (first at line
// N); a key may appear once in a mapping" for the first mapping key of
// `root`, in document order, that repeats a key of the same mapping
// (scalar keys, compared by their text; other keys are not compared).
// `place` names the document in the message (a file's display path, or
// "--input"). A node reached through several aliases is walked each time.
void check_duplicate_keys(const std::string& place, const YAML::Node& root);

}  // namespace judge
