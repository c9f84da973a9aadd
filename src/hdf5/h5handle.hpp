#pragma once
// Private to src/hdf5: an owning HDF5 identifier and the turning of negative
// HDF5 returns into IoError messages that name the object and the file.
#include <hdf5.h>

#include <string>
#include <utility>

namespace tdcone::hdf5::detail {

/// Owns one HDF5 identifier (file, group, dataset, space, type, property
/// list, attribute) and closes it with the matching H5*close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Handle() { close(); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      close();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      closer_ = other.closer_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  /// Gives up ownership without closing (e.g. after MPI_Finalize, when a collective close would crash).
  void forget() { id_ = H5I_INVALID_HID; }
  bool valid() const { return id_ >= 0; }
  /// Closes now; returns the H5*close status (0 when there was nothing to close).
  herr_t close() {
    herr_t status = 0;
    // H5Iis_valid: after H5close (e.g. at MPI_Finalize) the id is gone and closing it would only complain.
    if (id_ >= 0 && closer_ != nullptr && H5Iis_valid(id_) > 0) status = closer_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

/// Turns off HDF5's automatic printing of its error stack (we report instead).
void silence_hdf5_errors();

/// A short reason for the last HDF5 failure (innermost error of the stack),
/// then clears the stack. "unknown HDF5 error" when the stack is empty.
std::string hdf5_reason();

/// Throws IoError "cannot <action> <object> in <file>: <reason>".
[[noreturn]] void fail(const std::string& action, const std::string& object, const std::string& file);

/// Returns `id` if valid, else fail(action, object, file).
hid_t checked(hid_t id, const std::string& action, const std::string& object, const std::string& file);
/// Throws via fail(...) if `status` is negative.
void check(herr_t status, const std::string& action, const std::string& object, const std::string& file);

inline Handle own(hid_t id, Handle::Closer closer, const std::string& action, const std::string& object,
                  const std::string& file) {
  return Handle(checked(id, action, object, file), closer);
}

}  // namespace tdcone::hdf5::detail
