// `record --append` to a file whose last write never finished (a recorder killed,
// a full disk): its last gzip member has no end, and a member appended behind it
// would be unreadable to zcat and to older readers. The file is first rewritten
// with every complete frame, atomically, under the recorder lock.
#pragma once

#include <optional>
#include <string>

#include "musatop/util/result.hpp"

namespace musatop::replay {

// Nothing (std::nullopt) when the file ends cleanly; a note saying what was done
// when it was repaired; an error when another recorder holds it or it cannot be
// read or rewritten.
Result<std::optional<std::string>> repair_unfinished_tail(const std::string& path);

// The refusal for a recording whose lock another holds, naming who (util's
// lock_holder_text): a reader of a 0644 recording may lock it too.
std::string locked_text(const std::string& path, int fd);

}  // namespace musatop::replay
