#include "tdcone/engine/vocabulary_stage.hpp"

#include "tdcone/mpi/guard.hpp"

namespace tdcone::engine {

namespace {

// Marks the words of the share's scored pairs and adds to `row_work` (with
// more than one rank) what each input word's row will cost its owner: a pair
// adds about |y| + 1 cells to the row of each of its input words. Most pairs
// of a Twitter-shaped corpus repeat the input before them (a source over its
// candidates): a run of them marks its input words and adds their work once.
void mark_words(const text::TokenizedShare& share, mpi::WordMarks& marks, unsigned input_bit, unsigned output_bit,
                std::vector<std::uint64_t>& row_work, std::span<const std::uint32_t> group_of_pair = {}) {
  std::span<const text::WordId> run_input;
  std::uint64_t run_work = 0;
  const auto end_run = [&] {
    if (!row_work.empty())
      for (auto w : run_input) row_work[w] += run_work;
    run_work = 0;
  };
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share.flags[i] & schema::bad_line) continue;
    const auto x = share.src_types(i);
    if (x.data() != run_input.data() || x.size() != run_input.size()) {  // a repeated side is the same types
      end_run();
      for (auto w : x) marks.set(w, input_bit);
      run_input = x;
    }
    run_work += share.tgt_types(i).size() + 1;
    for (auto w : share.tgt_types(i)) marks.set(w, output_bit);
    if (!group_of_pair.empty() && group_of_pair[i] != entropy::kNoGroup)
      for (auto w : share.tgt_types(i)) marks.set(w, mpi::WordMarks::group_output(group_of_pair[i]));
  }
  end_run();
}

}  // namespace

RoutedVocabulary route_vocabulary(const boost::mpi::communicator& comm, const text::TokenizedShare& corpus,
                                  const text::TokenizedShare* reference, const text::Vocabulary& vocabulary,
                                  const entropy::PairGroups& groups, const align::EmbeddingTable* embeddings) {
  mpi::WordMarks marks(vocabulary.size(), groups.group_count());
  std::vector<std::uint64_t> row_work;
  mpi::collective_step(comm, [&] {  // local: agreed before the vocabulary exchange
    if (comm.size() > 1) row_work.assign(vocabulary.size(), 0);  // one rank owns every row: nothing to even out
    mark_words(corpus, marks, mpi::WordMarks::corpus_input, mpi::WordMarks::corpus_output, row_work,
               groups.group_of_pair);
    if (reference)
      mark_words(*reference, marks, mpi::WordMarks::reference_input, mpi::WordMarks::reference_output, row_work);
    if (embeddings)
      for (text::WordId w = 0; w < vocabulary.size(); ++w)
        if (embeddings->vector(w)) marks.set(w, mpi::WordMarks::with_vector);
  });
  RoutedVocabulary result;
  result.global = mpi::build_global_vocabulary(comm, vocabulary, marks, row_work);
  result.routes.global_id = result.global.global_id;  // a view: moving the result keeps the buffer
  result.routes.owner.resize(vocabulary.size());
  for (std::size_t w = 0; w < vocabulary.size(); ++w)
    result.routes.owner[w] = static_cast<std::uint32_t>(result.global.owner(result.global.global_id[w]));
  return result;
}

}  // namespace tdcone::engine
