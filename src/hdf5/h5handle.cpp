#include "h5handle.hpp"

#include <cctype>

#include "tdcone/core/error.hpp"

namespace tdcone::hdf5::detail {

void silence_hdf5_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {
struct Innermost {
  bool seen = false;
  hid_t minor = H5I_INVALID_HID;
  std::string desc;
};

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

herr_t take_innermost(unsigned, const H5E_error2_t* error, void* data) {
  auto* innermost = static_cast<Innermost*>(data);
  if (!innermost->seen) {  // walking upward: the first entry is where HDF5 detected the problem
    innermost->seen = true;
    innermost->minor = error->min_num;
    if (error->desc != nullptr) innermost->desc = error->desc;
  }
  return 0;
}
}  // namespace

std::string hdf5_reason() {
  Innermost innermost;
  // Copy what we need while walking: any other API call would clear the stack.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_innermost, &innermost);
  H5Eclear2(H5E_DEFAULT);
  if (!innermost.seen) return "unknown HDF5 error";
  std::string minor;
  char text[256];
  if (innermost.minor >= 0 && H5Eget_msg(innermost.minor, nullptr, text, sizeof text) > 0) minor = text;
  H5Eclear2(H5E_DEFAULT);
  // Descriptions can be long (whole file names, errno dumps): keep them short.
  std::string desc = innermost.desc;
  const std::string system_marker = "error message = '";  // from the file drivers: the errno text
  if (const auto at = desc.find(system_marker); at != std::string::npos) {
    const auto start = at + system_marker.size();
    desc = desc.substr(start, desc.find('\'', start) - start);
  }
  if (desc.size() > 160) desc = desc.substr(0, 157) + "...";
  if (desc.empty()) return minor.empty() ? "unknown HDF5 error" : minor;
  if (minor.empty() || lowercase(desc).find(lowercase(minor)) != std::string::npos) return desc;
  return minor + ": " + desc;
}

void fail(const std::string& action, const std::string& object, const std::string& file) {
  throw IoError(cat("cannot ", action, " ", object, " in ", file, ": ", hdf5_reason()));
}

hid_t checked(hid_t id, const std::string& action, const std::string& object, const std::string& file) {
  if (id < 0) fail(action, object, file);
  return id;
}

void check(herr_t status, const std::string& action, const std::string& object, const std::string& file) {
  if (status < 0) fail(action, object, file);
}

}  // namespace tdcone::hdf5::detail
