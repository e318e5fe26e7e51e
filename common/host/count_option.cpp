#include "host/count_option.hpp"

#include <stdexcept>

#include "host/sizes.hpp"

namespace stepwise {

CountOption count_option(const std::string& text) { return {true, text, parse_count(text)}; }

CLI::Option* add_count_option(CLI::App& app, const std::string& name, CountOption& target, const std::string& help) {
  return app
      .add_option_function<std::string>(
          name,
          [name, &target](const std::string& text) {
            try {
              target = count_option(text);
            } catch (const std::invalid_argument& error) {
              throw CLI::ValidationError(name, error.what());
            }
          },
          help)
      ->type_name("COUNT");
}

std::string typed(const std::string& name, const CountOption& option) {
  return option.given ? name + " " + option.text : std::string();
}

}  // namespace stepwise
