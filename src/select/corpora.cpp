#include "tdcone/select/corpora.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <xxhash.h>

#include <algorithm>

#include "tdcone/mpi/exchange.hpp"

namespace tdcone::select {

namespace {

// The words of line i on `side`, with counts, sorted by local id ("both": summed).
void line_words(const text::TokenizedShare& share, std::size_t i, Side side,
                std::vector<std::pair<text::WordId, std::uint32_t>>& out) {
  out.clear();
  auto append = [&](std::size_t k) {  // k: 2i for src, 2i+1 for tgt
    for (std::uint64_t j = share.type_start[k]; j < share.type_end(k); ++j)
      out.emplace_back(share.types[j], share.type_counts[j]);
  };
  if (side != Side::tgt) append(2 * i);
  if (side != Side::src) append(2 * i + 1);
  if (side != Side::both) return;
  std::sort(out.begin(), out.end());
  std::size_t kept = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    if (kept > 0 && out[kept - 1].first == out[j].first)
      out[kept - 1].second += out[j].second;
    else
      out[kept++] = out[j];
  }
  out.resize(kept);
}

std::uint32_t line_length(const text::TokenizedShare& share, std::size_t i, Side side) {
  return (side != Side::tgt ? share.src_len[i] : 0) + (side != Side::src ? share.tgt_len[i] : 0);
}

// Junk for selection (docs/spec.md §6): a bad line, or no tokens, or more than the cap.
bool junk_line(const text::TokenizedShare& share, std::size_t i, Side side, std::uint32_t length_cap) {
  const std::uint32_t length = line_length(share, i, side);
  return (share.flags[i] & schema::bad_line) || length == 0 || length > length_cap;
}

// The hash of line i's text on `side` (identical strings have equal hashes).
std::uint64_t line_hash(const text::TokenizedShare& share, std::size_t i, Side side) {
  const std::uint64_t hashes[2] = {share.src_hash[i], share.tgt_hash[i]};
  return side == Side::src ? hashes[0] : side == Side::tgt ? hashes[1] : XXH3_64bits(hashes, sizeof hashes);
}

// Adds the tokens of every good line of `share` to `counts` (lexicon ids); returns the token total. Lines in the
// seed or left out by --where count as if they were not there.
std::uint64_t count_tokens(const text::TokenizedShare& share, Side side, const std::vector<std::uint32_t>& lexicon_id,
                           std::vector<std::uint64_t>& counts) {
  std::vector<std::pair<text::WordId, std::uint32_t>> words;
  std::uint64_t tokens = 0;
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (share.flags[i] & (schema::bad_line | schema::in_seed | schema::left_out)) continue;
    line_words(share, i, side, words);
    for (const auto& [w, c] : words) counts[lexicon_id[w]] += c;
    tokens += line_length(share, i, side);
  }
  return tokens;
}

// Per local word id: true when the word occurs in AVAIL lines flagged
// left_out and in no other line of any corpus.
std::vector<bool> words_only_in_left_out_lines(const Corpora& corpora) {
  std::vector<std::uint8_t> seen(corpora.vocabulary.size(), 0);  // 1: in a left-out line; 2: in another line
  const auto mark = [&](const text::TokenizedShare& share, bool left_out) {
    for (std::size_t i = 0; i < share.size(); ++i) {
      if (bool(share.flags[i] & schema::left_out) != left_out) continue;
      for (const auto side : {share.src_types(i), share.tgt_types(i)})
        for (const text::WordId w : side) seen[w] = left_out ? std::max<std::uint8_t>(seen[w], 1) : 2;
    }
  };
  mark(corpora.available, true);
  std::vector<bool> only(seen.size(), false);
  if (std::find(seen.begin(), seen.end(), 1) == seen.end()) return only;  // none left out
  for (const text::TokenizedShare* share : {&corpora.representative, &corpora.available,
                                            corpora.unadapted ? &*corpora.unadapted : nullptr,
                                            corpora.seed ? &*corpora.seed : nullptr})
    if (share) mark(*share, false);
  for (std::size_t w = 0; w < seen.size(); ++w) only[w] = seen[w] == 1;
  return only;
}

}  // namespace

Statistics gather_statistics(const boost::mpi::communicator& comm, const Corpora& corpora, Side side,
                             std::vector<std::uint32_t>& lexicon_id) {
  // Every rank's words, '\n'-joined (tokens never hold white space), but those
  // only in AVAIL lines left out by --where: those lines are as if not there.
  const std::vector<bool> left_out_only = words_only_in_left_out_lines(corpora);
  std::string mine;
  for (text::WordId w = 1; w < corpora.vocabulary.size(); ++w)
    if (!left_out_only[w]) (mine += corpora.vocabulary.word(w)) += '\n';
  std::vector<std::string> all;
  boost::mpi::all_gather(comm, mine, all);
  mine.clear();
  Statistics stats;
  for (const std::string& words : all)
    for (std::size_t at = 0; at < words.size();) {
      const std::size_t end = words.find('\n', at);
      stats.lexicon.push_back(words.substr(at, end - at));
      at = end + 1;
    }
  all.clear();
  std::sort(stats.lexicon.begin(), stats.lexicon.end());
  stats.lexicon.erase(std::unique(stats.lexicon.begin(), stats.lexicon.end()), stats.lexicon.end());

  lexicon_id.assign(corpora.vocabulary.size(), 0);  // a word only in left-out lines is never looked up
  for (text::WordId w = 1; w < corpora.vocabulary.size(); ++w)
    lexicon_id[w] = static_cast<std::uint32_t>(
        std::lower_bound(stats.lexicon.begin(), stats.lexicon.end(), corpora.vocabulary.word(w)) - stats.lexicon.begin());

  // Only words seen in a good line of one of the corpora make the lexicon's counts; all are in L.
  const std::size_t n = stats.lexicon.size();
  auto counted = [&](const text::TokenizedShare* share, std::optional<Side> own_side, std::vector<std::uint64_t>& counts,
                     std::uint64_t& tokens) {
    counts.assign(n, 0);
    tokens = share ? count_tokens(*share, own_side.value_or(side), lexicon_id, counts) : 0;
    counts = mpi::sum_all(comm, counts);
    tokens = mpi::sum_all(comm, tokens);
  };
  std::uint64_t available_tokens = 0;
  counted(&corpora.representative, corpora.representative_side, stats.repr, stats.repr_tokens);
  counted(&corpora.available, side, stats.available, available_tokens);
  if (corpora.unadapted) {
    counted(&*corpora.unadapted, corpora.unadapted_side, stats.unadapted, stats.unadapted_tokens);
  } else {
    stats.unadapted = stats.available;
    stats.unadapted_tokens = available_tokens;
  }
  counted(corpora.seed ? &*corpora.seed : nullptr, corpora.seed_side, stats.seed, stats.seed_tokens);
  return stats;
}

AvailableLines available_lines(const text::TokenizedShare& available, Side side,
                               const std::vector<std::uint32_t>& lexicon_id, std::uint32_t length_cap,
                               std::vector<std::size_t>& junk) {
  AvailableLines lines;
  std::vector<std::pair<text::WordId, std::uint32_t>> words;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> in_lexicon;
  for (std::size_t i = 0; i < available.size(); ++i) {
    if ((available.flags[i] & (schema::in_seed | schema::left_out)) || junk_line(available, i, side, length_cap)) {
      junk.push_back(i);
      continue;
    }
    line_words(available, i, side, words);
    in_lexicon.clear();
    for (const auto& [w, c] : words) in_lexicon.emplace_back(lexicon_id[w], c);
    std::sort(in_lexicon.begin(), in_lexicon.end());
    for (const auto& [v, c] : in_lexicon) {
      lines.words.push_back(v);
      lines.counts.push_back(c);
    }
    lines.start.push_back(lines.words.size());
    lines.pair_id.push_back(available.first_pair_id + i);
    lines.length.push_back(line_length(available, i, side));
    lines.text_hash.push_back(line_hash(available, i, side));
  }
  return lines;
}

std::uint64_t flag_seed_lines(const boost::mpi::communicator& comm, Corpora& corpora, Side side,
                              std::uint32_t length_cap) {
  // The sorted, distinct hashes of every rank's good SEED lines, on every rank.
  std::vector<std::uint64_t> mine;
  if (corpora.seed) {
    const text::TokenizedShare& seed = *corpora.seed;
    for (std::size_t i = 0; i < seed.size(); ++i)
      if (!(seed.flags[i] & schema::bad_line)) mine.push_back(line_hash(seed, i, side));
  }
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  std::vector<std::vector<std::uint64_t>> all;
  boost::mpi::all_gather(comm, mine, all);
  std::vector<std::uint64_t> seed_hashes;
  for (const auto& part : all) seed_hashes.insert(seed_hashes.end(), part.begin(), part.end());
  all.clear();
  std::sort(seed_hashes.begin(), seed_hashes.end());
  seed_hashes.erase(std::unique(seed_hashes.begin(), seed_hashes.end()), seed_hashes.end());

  text::TokenizedShare& available = corpora.available;
  std::uint64_t flagged = 0;
  if (!seed_hashes.empty())
    for (std::size_t i = 0; i < available.size(); ++i) {
      if (junk_line(available, i, side, length_cap)) continue;  // junk stays junk
      if (std::binary_search(seed_hashes.begin(), seed_hashes.end(), line_hash(available, i, side))) {
        available.flags[i] |= schema::in_seed;
        ++flagged;
      }
    }
  return mpi::sum_all(comm, flagged);
}

std::uint64_t lines_fingerprint(const text::TokenizedShare& share) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < share.size(); ++i) {
    const std::uint64_t line[4] = {share.first_pair_id + i, share.src_hash[i], share.tgt_hash[i], share.flags[i]};
    sum += XXH3_64bits(line, sizeof line);
  }
  return sum;
}

}  // namespace tdcone::select
