// Which per-process series the agent exports (--process-metrics): a choice of its
// own header so the command line can name it without the renderer.
#pragma once

namespace musatop::serve {

enum class ProcessMetrics { off, memory, with_command };

}  // namespace musatop::serve
