#include "tdcone/align/count_matrix.hpp"

namespace tdcone::align {

void LocalCountMatrix::add(const PairMatrix& pair) {
  for (std::size_t i = 0; i < pair.rows.size(); ++i)
    for (const Cell& cell : pair.row(i)) cells_[key(pair.rows[i], cell.y)] += cell.weight;
}

}  // namespace tdcone::align
