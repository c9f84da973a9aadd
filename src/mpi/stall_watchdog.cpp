#include "tdcone/mpi/stall_watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tdcone/mpi/guard.hpp"
#include "tdcone/core/activity.hpp"
#include "tdcone/core/error.hpp"

namespace tdcone::mpi {

namespace {

using Clock = std::chrono::steady_clock;

MPI_Comm stall_channel = MPI_COMM_NULL;

enum Tag { kBeat = 1, kReply, kBye };

// A heartbeat (to rank 0) or its answer (from rank 0): the sender's state.
struct Beat {
  double idle = 0;  // seconds since the sender's last progress
  char phase[48] = {};
  char host[64] = {};
};

template <std::size_t N>
void copy_text(char (&to)[N], const std::string& from) {
  const std::size_t n = std::min(from.size(), N - 1);
  from.copy(to, n);
  to[n] = '\0';
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

StallChannel::StallChannel(MPI_Comm comm) { MPI_Comm_dup(comm, &stall_channel); }

StallChannel::~StallChannel() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Comm_free(&stall_channel);
  stall_channel = MPI_COMM_NULL;
}

struct StallWatchdog::Watch {
  double timeout;
  // Between heartbeats; a heartbeat late by `timeout` is a stall, so several fit in it.
  Clock::duration interval;
  int rank = 0, size = 1;
  std::string host = host_name();
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false, leaving = false;  // under `mutex`
  std::uint64_t seen_steps = progress_steps();
  Clock::time_point last_progress = Clock::now();
  std::thread thread;

  explicit Watch(double timeout_seconds)
      : timeout(timeout_seconds),
        interval(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(2.0, timeout / 4)))) {
    MPI_Comm_rank(stall_channel, &rank);
    MPI_Comm_size(stall_channel, &size);
    int threads = MPI_THREAD_SINGLE;
    MPI_Query_thread(&threads);
    if (threads < MPI_THREAD_MULTIPLE)
      thread = std::thread([this] { watch_alone(); });
    else if (rank == 0)
      thread = std::thread([this] { hear_ranks(); });
    else
      thread = std::thread([this] { beat(); });
  }

  void end(bool normal) {
    {
      const std::lock_guard lock(mutex);
      (normal ? stopping : leaving) = true;
    }
    wake.notify_all();
    thread.join();
  }

  // This rank's progress as of `now`.
  void sample(Clock::time_point now) {
    const std::uint64_t steps = progress_steps();
    if (steps != seen_steps) seen_steps = steps, last_progress = now;
  }

  Beat own_beat(Clock::time_point now) const {
    Beat beat;
    beat.idle = seconds(now - last_progress);
    copy_text(beat.phase, current_phase());
    copy_text(beat.host, host);
    return beat;
  }

  // Sleeps a tick, or less when told to end; then what to do: 0 go on, 1 stop, 2 leave.
  int pause() {
    std::unique_lock lock(mutex);
    wake.wait_for(lock, std::min<Clock::duration>(interval, std::chrono::milliseconds(100)),
                  [&] { return stopping || leaving; });
    return leaving ? 2 : stopping ? 1 : 0;
  }

  [[noreturn]] void stall(int who, const std::string& who_host, double idle, const std::string& phase,
                          const std::string& why) const {
    std::fprintf(stderr,
                 "tdcone: error: rank %d (host %s) made no progress for %.0f s (phase: %s)%s; stopping the job "
                 "(%s %g)\n",
                 who, who_host.c_str(), idle, phase.c_str(), why.c_str(), option_name(Option::stall_timeout).c_str(),
                 timeout);
    abort_job(1);
  }

  // Without MPI_THREAD_MULTIPLE: no heartbeats, only this rank's own progress.
  void watch_alone() {
    while (pause() == 0) {
      const auto now = Clock::now();
      sample(now);
      if (seconds(now - last_progress) > timeout)
        stall(rank, host, seconds(now - last_progress), current_phase(),
              "; the other ranks cannot be asked (the MPI library has no MPI_THREAD_MULTIPLE for heartbeats)");
    }
  }

  // Rank 0: hears and answers every heartbeat; judges.
  void hear_ranks() {
    struct Peer {
      Clock::time_point heard;
      double idle = 0;
      std::string phase = "start", host = "unknown";
      bool gone = false;  // said goodbye: its command ended
    };
    std::vector<Peer> peers(size, Peer{Clock::now()});
    Beat in;
    MPI_Request request;
    const auto listen = [&] { MPI_Irecv(&in, sizeof in, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, stall_channel, &request); };
    listen();
    for (int state = 0;; state = pause()) {
      const auto now = Clock::now();
      sample(now);
      int done = 0;
      MPI_Status status;
      while (MPI_Test(&request, &done, &status), done) {
        Peer& peer = peers[status.MPI_SOURCE];
        if (status.MPI_TAG == kBye) {
          peer.gone = true;
        } else {
          peer = {now, in.idle, in.phase, in.host, false};
          const Beat reply = own_beat(now);
          MPI_Send(&reply, sizeof reply, MPI_BYTE, status.MPI_SOURCE, kReply, stall_channel);
        }
        listen();
      }
      const bool all_gone = std::all_of(peers.begin() + 1, peers.end(), [](const Peer& p) { return p.gone; });
      if (state == 2 || (state == 1 && all_gone)) {
        MPI_Cancel(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        return;
      }
      // When no rank still at work has made progress, or one has not answered,
      // for the timeout: a silent rank is the likely cause, else the one idle longest.
      int oldest = -1, silent = -1;
      double oldest_idle = 0, least_idle = timeout + 1, longest_silence = 0;
      if (state == 0) oldest = 0, oldest_idle = least_idle = seconds(now - last_progress);
      for (int r = 1; r < size; ++r) {
        const Peer& peer = peers[r];
        if (peer.gone) continue;
        const double silence = seconds(now - peer.heard), idle = silence + peer.idle;
        if (silence > longest_silence) silent = r, longest_silence = silence;
        least_idle = std::min(least_idle, idle);
        if (oldest < 0 || idle > oldest_idle) oldest = r, oldest_idle = idle;
      }
      if (longest_silence > timeout || (least_idle > timeout && longest_silence > 3 * seconds(interval))) {
        const Peer& peer = peers[silent];
        stall(silent, peer.host, longest_silence + peer.idle, peer.phase, " and does not answer");
      }
      if (least_idle > timeout)
        stall(oldest, oldest == 0 ? host : peers[oldest].host, oldest_idle,
              oldest == 0 ? current_phase() : peers[oldest].phase,
              cat(", nor did any other rank (if that phase can take so long, raise ", Option::stall_timeout, ")"));
    }
  }

  // Ranks 1 and up: a heartbeat to rank 0 every interval and at each new
  // phase, the next once it is answered.
  void beat() {
    Beat hub;  // rank 0's last answer
    copy_text(hub.phase, "start");
    copy_text(hub.host, "unknown");
    Clock::time_point heard = Clock::now(), next = heard;
    // Rank 1 reports a silent rank 0; the others only if rank 1 cannot.
    const double patience = timeout + (rank == 1 ? 0 : 2 * seconds(interval));
    Beat reply;
    MPI_Request request;
    bool waiting = false;
    std::string phase;  // in the last heartbeat
    for (int state = 0;; state = pause()) {
      const auto now = Clock::now();
      sample(now);
      int done = 0;
      if (waiting && (MPI_Test(&request, &done, MPI_STATUS_IGNORE), done)) waiting = false, heard = now, hub = reply;
      if (state == 2 && waiting) {
        MPI_Cancel(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      }
      if (state == 2 || (state == 1 && !waiting)) {
        if (state == 1) MPI_Send(nullptr, 0, MPI_BYTE, 0, kBye, stall_channel);
        return;
      }
      if (const std::string current = current_phase(); !waiting && state == 0 && (now >= next || current != phase)) {
        phase = current;
        const Beat mine = own_beat(now);
        MPI_Send(&mine, sizeof mine, MPI_BYTE, 0, kBeat, stall_channel);
        MPI_Irecv(&reply, sizeof reply, MPI_BYTE, 0, kReply, stall_channel, &request);
        waiting = true;
        next = now + interval;
      }
      if (seconds(now - heard) > patience)
        stall(0, hub.host, seconds(now - heard) + hub.idle, hub.phase, " and does not answer");
    }
  }
};

StallWatchdog::StallWatchdog(double timeout_seconds) {
  if (timeout_seconds <= 0 || stall_channel == MPI_COMM_NULL) return;
  int size = 1;
  MPI_Comm_size(stall_channel, &size);
  if (size > 1) watch_ = std::make_unique<Watch>(timeout_seconds);
}

void StallWatchdog::stop() {
  if (watch_) watch_->end(true);
  watch_.reset();
}

StallWatchdog::~StallWatchdog() {
  if (watch_) watch_->end(false);
}

}  // namespace tdcone::mpi
