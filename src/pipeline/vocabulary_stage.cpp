#include "tdcone/pipeline/vocabulary_stage.hpp"

#include "tdcone/core/guard.hpp"

namespace tdcone::pipeline {

namespace {

void mark_words(const text::TokenizedShare& share, mpi::WordMarks& marks, unsigned input_bit, unsigned output_bit,
                std::span<const std::uint32_t> group_of_pair = {}) {
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share.flags[i] & schema::bad_line) continue;
    for (auto w : share.src_types(i)) marks.set(w, input_bit);
    for (auto w : share.tgt_types(i)) marks.set(w, output_bit);
    if (!group_of_pair.empty() && group_of_pair[i] != entropy::kNoGroup)
      for (auto w : share.tgt_types(i)) marks.set(w, mpi::WordMarks::group_output(group_of_pair[i]));
  }
}

}  // namespace

RoutedVocabulary route_vocabulary(const boost::mpi::communicator& comm, const text::TokenizedShare& corpus,
                                  const text::TokenizedShare* reference, const text::Vocabulary& vocabulary,
                                  const entropy::PairGroups& groups) {
  mpi::WordMarks marks(vocabulary.size(), groups.group_count());
  mpi::collective_step(comm, [&] {  // local: agreed before the vocabulary exchange
    mark_words(corpus, marks, mpi::WordMarks::corpus_input, mpi::WordMarks::corpus_output, groups.group_of_pair);
    if (reference) mark_words(*reference, marks, mpi::WordMarks::reference_input, mpi::WordMarks::reference_output);
  });
  RoutedVocabulary result;
  result.global = mpi::build_global_vocabulary(comm, vocabulary, marks);
  result.routes.global_id = result.global.global_id;  // a view: moving the result keeps the buffer
  result.routes.owner.resize(vocabulary.size());
  for (std::size_t w = 0; w < vocabulary.size(); ++w)
    result.routes.owner[w] = static_cast<std::uint32_t>(result.global.owner(result.global.global_id[w]));
  return result;
}

}  // namespace tdcone::pipeline
