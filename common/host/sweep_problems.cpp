#include "host/sweep_problems.hpp"

#include <cctype>
#include <sstream>
#include <stdexcept>

#include "host/sizes.hpp"

namespace stepwise {

std::string sweep_problem_slug(const std::string& label) {
  std::string slug;
  for (const char c : label) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0)
      slug += static_cast<char>(std::tolower(byte));
    else if (c == '%')
      slug += "pct";
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

std::string sweep_problem_listing(const std::vector<SweepProblem>& problems) {
  std::string text;
  for (const SweepProblem& problem : problems) {
    text += problem.label + "\t";
    for (std::size_t i = 0; i < problem.arguments.size(); ++i) text += (i == 0 ? "" : " ") + problem.arguments[i];
    if (problem.max_n != 0) text += "\tmax_n=" + format_count(problem.max_n);
    text += "\n";
  }
  return text;
}

std::vector<SweepProblem> parse_sweep_problem_listing(const std::string& text) {
  std::vector<SweepProblem> problems;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto refuse = [&line](const std::string& why) {
      throw std::invalid_argument("--list-problems line '" + line + "': " + why);
    };
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    if (!line.empty() && line.back() == '\t') fields.emplace_back();
    if (fields.size() < 2 || fields.size() > 3) refuse("expected LABEL<TAB>ARGUMENTS[<TAB>max_n=COUNT]");
    SweepProblem problem;
    problem.label = fields[0];
    if (problem.label.empty()) refuse("an empty label");
    std::istringstream words(fields[1]);
    for (std::string word; std::getline(words, word, ' ');) {
      if (word.empty()) refuse("an empty argument (two blanks in a row)");
      problem.arguments.push_back(word);
    }
    if (!fields[1].empty() && fields[1].back() == ' ') refuse("an empty argument at the end");
    if (fields.size() == 3) {
      const std::string prefix = "max_n=";
      if (fields[2].rfind(prefix, 0) != 0) refuse("the third field is not max_n=COUNT");
      try {
        problem.max_n = parse_count(fields[2].substr(prefix.size()));
      } catch (const std::invalid_argument& error) {
        refuse(error.what());
      }
    }
    problems.push_back(problem);
  }
  return problems;
}

}  // namespace stepwise
