// Small text helpers shared by the parsers of GMI's plain-text output.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace musatop::gmi {

// Removes ANSI CSI sequences (ESC [ params intermediates final).
std::string strip_ansi_csi(std::string_view text);

// A line made only of rule characters (- + = |) and spaces, with at least one of them.
bool is_rule_line(std::string_view line);

// The first line, trimmed, that starts with "Error:" (GMI prints failures that way
// even when it exits 0); empty when there is none.
std::string find_error_line(std::string_view text);

}  // namespace musatop::gmi
