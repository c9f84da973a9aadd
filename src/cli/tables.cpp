#include "tdcone/cli/tables.hpp"

#include <algorithm>
#include <span>

namespace tdcone::cli {

int name_width(const std::vector<std::string>& names, const std::string& header) {
  std::size_t width = header.size();
  for (const auto& name : names) width = std::max(width, name.size());
  return static_cast<int>(width);
}

SubsetTable::SubsetTable(const boost::mpi::communicator& comm, h5::OutputFile& file, std::string group)
    : writer_(comm.rank() == 0), file_(file), group_(std::move(group)) {
  file_.create_group(group_);
}

template <class T>
void SubsetTable::write(const std::string& name, const std::vector<T>& values) {
  const std::span<const T> rows = writer_ ? std::span<const T>(values) : std::span<const T>();
  file_.write_column(group_ + "/" + name, rows, 0, values.size());
}

void SubsetTable::column(const std::string& name, const std::vector<double>& values) { write(name, values); }
void SubsetTable::column(const std::string& name, const std::vector<std::uint64_t>& values) { write(name, values); }
void SubsetTable::column(const std::string& name, const std::vector<std::uint8_t>& values) { write(name, values); }
void SubsetTable::column(const std::string& name, const std::vector<std::string>& values) {
  file_.write_column(group_ + "/" + name, writer_ ? values : std::vector<std::string>(), 0, values.size());
}

void SubsetTable::scores(const std::vector<entropy::SubsetScore>& subsets, std::size_t first, std::size_t count,
                         bool with_reference, bool cond_entropy) {
  auto field = [&](double entropy::SubsetScore::*member) {
    std::vector<double> values;
    for (std::size_t s = first; s < first + count; ++s) values.push_back(subsets[s].*member);
    return values;
  };
  column("tdcone", field(&entropy::SubsetScore::tdcone));
  if (cond_entropy) column("cond_entropy", field(&entropy::SubsetScore::cond_entropy));
  if (!with_reference) return;
  column("kl_pq", field(&entropy::SubsetScore::kl_pq));
  column("kl_pu", field(&entropy::SubsetScore::kl_pu));
  column("tdcone_rel", field(&entropy::SubsetScore::tdcone_rel));
}

}  // namespace tdcone::cli
