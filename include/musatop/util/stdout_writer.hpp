// The one way every mode writes its output. Writes are whole (EINTR retried); a
// reader that went away (EPIPE: `| head`) ends the output quietly, as every Unix
// tool does; any other failure (a full disk, /dev/full, a closed stdout) is said
// on stderr once and makes the exit status 1, so a script never takes a cut
// document for a whole one.
#pragma once

#include <string_view>

namespace musatop {

enum class Written { ok, reader_gone, failed, stopped };

// Writes `text` to stdout; on `failed`, the reason is said on stderr. With a
// `stop_fd`, a reader that stops reading cannot hold the writer: it writes a pipe's
// atomic share at a time when stdout has room, and gives up (`stopped`) as soon as
// `stop_fd` turns readable (a stop signal poked it).
Written write_stdout(std::string_view text, int stop_fd = -1);

// The exit status `text`'s writing calls for: 0 written (or the reader left), 1 failed.
inline int print_stdout(std::string_view text) { return write_stdout(text) == Written::failed ? 1 : 0; }

}  // namespace musatop
