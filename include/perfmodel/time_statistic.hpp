// Which statistic of a set of timed runs a comparison or a fit uses: `measure --statistic` and
// `calibrate --statistic` share it (docs/measure.md, "Which statistic").
#pragma once

#include <optional>
#include <string_view>

namespace perfmodel {

/// median; p20 = the 20th percentile (the default: the most reproducible on a shared host);
/// min = the least disturbed run.
enum class TimeStatistic { median, p20, min };

std::string_view to_string(TimeStatistic s);
/// "median", "p20" or "min"; nullopt for anything else.
std::optional<TimeStatistic> parse_time_statistic(std::string_view s);

/// The figure `s` names among a timing's median, 20th percentile and min.
double pick(TimeStatistic s, double median_seconds, double p20_seconds, double min_seconds);

} // namespace perfmodel
