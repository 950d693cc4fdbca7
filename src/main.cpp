#include <string>
#include <vector>

#include "musatop/cli/app.hpp"

int main(int argc, char** argv) {
    return musatop::cli::run_program(std::vector<std::string>(argv + 1, argv + argc));
}
