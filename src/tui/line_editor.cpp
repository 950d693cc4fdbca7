#include "musatop/tui/line_editor.hpp"

#include "musatop/util/utf8.hpp"

namespace musatop::tui {

EditResult LineEditor::apply(const Key& key) {
    switch (key.kind) {
        case KeyKind::enter: return EditResult::accepted;
        case KeyKind::escape: return EditResult::cancelled;
        case KeyKind::backspace: {
            auto code_points = utf8::decode(text);
            if (!code_points.empty()) code_points.pop_back();
            text.clear();
            for (char32_t cp : code_points) utf8::append(text, cp);
            return EditResult::edited;
        }
        case KeyKind::character: {
            if (key.ch == 0x15) {  // Ctrl-U
                text.clear();
                return EditResult::edited;
            }
            if (key.ch == 0x17) {  // Ctrl-W: trailing spaces, then the word before them
                while (!text.empty() && text.back() == ' ') text.pop_back();
                while (!text.empty() && text.back() != ' ') text.pop_back();
                return EditResult::edited;
            }
            const bool printable = key.ch >= 0x20 && key.ch != 0x7F && !(key.ch >= 0x80 && key.ch < 0xA0);
            if (!printable || (ascii_only && key.ch >= 0x7F)) return EditResult::ignored;
            utf8::append(text, key.ch);
            return EditResult::edited;
        }
        default: return EditResult::ignored;
    }
}

}  // namespace musatop::tui
