#include "tdcone/cli/input_guard.hpp"

#include "tdcone/mpi/guard.hpp"

namespace tdcone::cli {

namespace {

using io::ReadFiles;

std::vector<ReadFiles> corpus(const config::CorpusConfig& o) {
  return {{"the corpus given with --input", o.inputs},
          {"the corpus given with --src-file", o.src_files},
          {"the corpus given with --tgt-file", o.tgt_files}};
}

void append_reference(std::vector<ReadFiles>& to, const config::ReferenceConfig& o) {
  to.push_back({"the reference given with --reference", {o.reference}});
  to.push_back({"the reference given with --reference-src-file", o.src_files});
  to.push_back({"the reference given with --reference-tgt-file", o.tgt_files});
}

ReadFiles embeddings(const config::EngineSettings& engine) {
  return {"the embeddings given with --embeddings", {engine.embeddings}};
}

// score and sweep: the corpus, the reference, the embeddings.
template <class Config>
CommandFiles scored_corpus_files(const Config& c) {
  CommandFiles files{corpus(c.corpus), {{"--output", c.output.output}}};
  append_reference(files.inputs, c.reference);
  files.inputs.push_back(embeddings(c.engine));
  return files;
}

}  // namespace

CommandFiles files_of(const ScoreOptions& score) { return scored_corpus_files(score.config); }

CommandFiles files_of(const BalanceOptions& balance) {
  const jobs::BalanceConfig& c = balance.config;
  CommandFiles files{corpus(c.corpus), {{"--output", c.output.output}}};
  files.inputs.push_back({"the ranking given with --ranking", {c.ranking}});
  files.inputs.push_back({"the result given with --where-result", {c.where.where_result}});
  files.inputs.push_back(embeddings(c.engine));
  return files;
}

CommandFiles files_of(const SweepOptions& sweep) { return scored_corpus_files(sweep.config); }

CommandFiles files_of(const SelectOptions& select) {
  const jobs::SelectConfig& s = select.config;
  return {{{"REPR given with --representative", s.representative},
           {"AVAIL given with --available", s.available},
           {"UNAD given with --unadapted", s.unadapted},
           {"SEED given with --seed-corpus", s.seed_corpus},
           {"the result given with --where-result", {s.where.where_result}}},
          {{"--output", s.output.output},
           {"--checkpoint", s.checkpoint.empty() ? s.output.output + ".ckpt" : s.checkpoint}}};
}

CommandFiles files_of(const ExportOptions& export_options) {
  const exporting::ExportConfig& e = export_options.config;
  return {{{"the result to export", {e.hdf5}}, {"the text given with --input", e.inputs}}, {{"--output", e.output}}};
}

void refuse_writing_over_inputs(const boost::mpi::communicator& comm, const CommandFiles& files) {
  mpi::collective_step(comm, [&] {
    for (const auto& [option, file] : files.outputs) io::refuse_writing_over_inputs(option, file, files.inputs);
  });
}

}  // namespace tdcone::cli
