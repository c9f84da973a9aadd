#pragma once
// How the command line spells the options that the modules' messages name
// (core/option.hpp): the one place of those words outside the option
// declarations themselves.
#include "tdcone/core/option.hpp"

namespace tdcone::cli {

/// Every Option's words, "--memory", in the order of the enum.
const OptionNames& option_names();

/// Installs option_names() for option_name (core/option.hpp): run_cli does it
/// first; so do the mains of the tests and of any other program of the library.
void install_option_names();

}  // namespace tdcone::cli
