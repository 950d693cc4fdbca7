// A message on the status line for a while ("Termination cancelled.", a bad node
// filter): the one helper of both screens.
#pragma once

#include <chrono>
#include <string>

#include "musatop/util/clock.hpp"

namespace musatop::tui {

struct StatusMessage {
    std::string text;
    MonoTime expires_at{};

    void show(std::string message, MonoTime now,
              std::chrono::steady_clock::duration shown_for = std::chrono::seconds(3)) {
        text = std::move(message);
        expires_at = now + shown_for;
    }
    bool visible(MonoTime now) const { return !text.empty() && now < expires_at; }
};

}  // namespace musatop::tui
