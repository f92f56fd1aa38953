#include "perfmodel/time_statistic.hpp"

namespace perfmodel {

std::string_view to_string(TimeStatistic s) {
  switch (s) {
  case TimeStatistic::p20:
    return "p20";
  case TimeStatistic::min:
    return "min";
  case TimeStatistic::median:
    break;
  }
  return "median";
}

std::optional<TimeStatistic> parse_time_statistic(std::string_view s) {
  for (TimeStatistic t : {TimeStatistic::median, TimeStatistic::p20, TimeStatistic::min})
    if (s == to_string(t))
      return t;
  return std::nullopt;
}

double pick(TimeStatistic s, double median_seconds, double p20_seconds, double min_seconds) {
  switch (s) {
  case TimeStatistic::p20:
    return p20_seconds;
  case TimeStatistic::min:
    return min_seconds;
  case TimeStatistic::median:
    break;
  }
  return median_seconds;
}

} // namespace perfmodel
