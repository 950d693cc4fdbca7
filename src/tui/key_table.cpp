#include "musatop/tui/key_table.hpp"

namespace musatop::tui {
namespace {

// Footer order first (the footer reads left to right in this order), then the
// keys that only the help dialog names.
// clang-format off
constexpr std::array<KeyEntry, 24> kTable = {{
    {"q", "q quit", true, "quit (F10 too). Ctrl-C quits from any screen and never signals a process.",
     {{{ch('q'), Action::quit}, {ch('Q'), Action::quit}, {kind(KeyKind::interrupt), Action::quit}, {fn(10), Action::quit}}}},
    {"Space", "Space pause", true, "replay: pause or resume.", {{{ch(' '), Action::replay_pause}}}, Scope::replay},
    {"Left / Right", "Left/Right step", true, "replay: one sample back / forward.",
     {{{kind(KeyKind::left), Action::replay_back}, {kind(KeyKind::right), Action::replay_forward}}}, Scope::replay},
    {"[ / ]", "[/] speed", false, "replay: slower / faster, 0.25x to 64x.",
     {{{ch('['), Action::replay_slower}, {ch(']'), Action::replay_faster}}}, Scope::replay},
    {"t", "t time", true, "replay: jump to a time (2026-12-02T03:15:00Z, local 2026-12-02 03:15, or +90s).",
     {{{ch('t'), Action::replay_jump}}}, Scope::replay},
    {"?", "? help", true, "this help (F1 too).", {{{ch('?'), Action::help}, {fn(1), Action::help}}}},
    {"g / G", "g/G GPU", true, "show the trend of the next / previous GPU, or ALL; the selection is unaffected.",
     {{{ch('g'), Action::trend_next}, {ch('G'), Action::trend_previous}}}},
    {"h", "h trend", true, "hide or show the trends (hidden automatically below 18 rows).",
     {{{ch('h'), Action::toggle_trends}}}},
    {"s / S", "s/S sort", false, "next sort field (F6 too) / reverse the order.",
     {{{ch('s'), Action::sort_next}, {ch('S'), Action::sort_reverse}, {fn(6), Action::sort_next}}}},
    {"/", "/ find", true, "search PIDs, GPU indices, users and commands as you type (F3 too); Enter keeps it, Esc puts "
     "back the old one; Ctrl-U clears, Ctrl-W takes a word.",
     {{{ch('/'), Action::search}, {fn(3), Action::search}}}},
    {"r / F5", "r refresh", false, "sample now.",
     {{{ch('r'), Action::refresh}, {ch('R'), Action::refresh}, {kind(KeyKind::refresh), Action::refresh}}},
     Scope::live},
    {"k", "k term", true, "send SIGTERM to the selected process after confirming with y (F9 too).",
     {{{ch('k'), Action::terminate}, {fn(9), Action::terminate}}}, Scope::live},
    {"k", "", false, "replay: refused; recorded processes are not live ones.",
     {{{ch('k'), Action::terminate}, {fn(9), Action::terminate}}}, Scope::replay},
    {"Enter", "Enter info", true, "details of the selected process, with its complete command line.",
     {{{kind(KeyKind::enter), Action::details}}}},
    {"i", "", false,
     "GPU details: identity, link, clocks, fan, ECC and health findings of the GPU whose trend is shown "
     "(g/G), or of every GPU shown. A ! after a GPU index marks findings.",
     {{{ch('i'), Action::gpu_details}}}},
    {"Up / Down / Tab / Shift-Tab", "", false, "move the process selection.",
     {{{kind(KeyKind::up), Action::select_previous},
       {kind(KeyKind::back_tab), Action::select_previous},
       {kind(KeyKind::down), Action::select_next},
       {kind(KeyKind::tab), Action::select_next}}}},
    {"Home / End", "", false, "first / last process.",
     {{{kind(KeyKind::home), Action::select_first}, {kind(KeyKind::end), Action::select_last}}}, Scope::live},
    {"Home / End", "", false, "replay: start / end of the recording.",
     {{{kind(KeyKind::home), Action::replay_start}, {kind(KeyKind::end), Action::replay_end}}}, Scope::replay},
    {"PgUp / PgDn", "", false, "page through GPUs when they do not all fit.",
     {{{kind(KeyKind::page_up), Action::gpus_page_up}, {kind(KeyKind::page_down), Action::gpus_page_down}}}},
    {"u", "", false, "only my processes (again: everybody's).", {{{ch('u'), Action::my_processes}}}},
    {"c", "", false, "compact process columns.", {{{ch('c'), Action::compact}}}},
    {"Ctrl-L", "", false, "redraw the screen.", {{{kind(KeyKind::redraw), Action::redraw}}}},
    {"Esc", "", false, "close a dialog or cancel a search (the confirmation's default is NO).", {}},
    {"y", "", false, "in the SIGTERM dialog only: confirm. The target is checked again first.", {}},
}};
// clang-format on

}  // namespace

std::span<const KeyEntry> key_table() { return kTable; }

Action action_for(const Key& key, bool replay) { return action_in(key_table(), key, replay); }

std::string footer_text(bool wide, bool replay) { return footer_of(key_table(), wide, replay); }

std::vector<std::string> key_help_lines(bool replay) { return help_of(key_table(), replay); }

}  // namespace musatop::tui
