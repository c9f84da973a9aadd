// The owning HDF5 identifier and the error reasons of src/hdf5/h5handle: a
// Handle closes what it owns once (moved, forgotten, closed early), and a
// failure's reason is the innermost entry of HDF5's error stack, made
// short, with IoErrors naming the action, the object and the file.
#include "../../src/hdf5/h5handle.hpp"  // a private header of src/hdf5

#include <gtest/gtest.h>
#include <hdf5.h>

#include <string>
#include <utility>

#include "tdcone/core/error.hpp"
#include "usage_error.hpp"

namespace tdcone::hdf5::detail {
namespace {

bool is_open(hid_t id) { return H5Iis_valid(id) > 0; }

TEST(Handle, ClosesWhatItOwnsWhenItGoes) {
  hid_t id = H5I_INVALID_HID;
  {
    const Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    id = space.get();
    EXPECT_TRUE(space.valid());
    EXPECT_TRUE(is_open(id));
  }
  EXPECT_FALSE(is_open(id));
}

TEST(Handle, AMoveHandsOverTheIdentifierToCloseOnce) {
  Handle first(H5Screate(H5S_SCALAR), H5Sclose);
  const hid_t id = first.get();
  Handle second(std::move(first));
  EXPECT_FALSE(first.valid());
  EXPECT_EQ(second.get(), id);
  EXPECT_EQ(first.close(), 0);  // nothing to close
  EXPECT_TRUE(is_open(id));

  Handle third(H5Screate(H5S_SCALAR), H5Sclose);
  const hid_t replaced = third.get();
  third = std::move(second);  // closes what it held before
  EXPECT_FALSE(is_open(replaced));
  EXPECT_EQ(third.get(), id);
  EXPECT_TRUE(is_open(id));
}

TEST(Handle, CloseReturnsTheStatusAndLeavesNothingToClose) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  const hid_t id = space.get();
  EXPECT_EQ(space.close(), 0);
  EXPECT_FALSE(space.valid());
  EXPECT_FALSE(is_open(id));
  EXPECT_EQ(space.close(), 0);
}

TEST(Handle, AForgottenIdentifierIsNotClosed) {
  hid_t id = H5I_INVALID_HID;
  {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    id = space.get();
    space.forget();
    EXPECT_FALSE(space.valid());
  }
  EXPECT_TRUE(is_open(id));
  H5Sclose(id);
}

TEST(Handle, AnIdentifierClosedElsewhereIsNotClosedAgain) {
  int closed = 0;
  static int* counter = nullptr;
  counter = &closed;
  const Handle::Closer counting = [](hid_t id) -> herr_t {
    ++*counter;
    return H5Sclose(id);
  };
  const hid_t id = H5Screate(H5S_SCALAR);
  {
    Handle space(id, counting);
    H5Sclose(id);  // as H5close does at MPI_Finalize
  }
  EXPECT_EQ(closed, 0);
  {
    Handle space(H5Screate(H5S_SCALAR), counting);
  }
  EXPECT_EQ(closed, 1);
}

// Errors pushed onto HDF5's stack under an error class of the tests' own,
// whose minor message is "Cannot frobnicate".
class Hdf5Reason : public ::testing::Test {
 protected:
  void SetUp() override {
    H5Eclear2(H5E_DEFAULT);
    class_ = H5Eregister_class("tdcone-test", "tdcone tests", "1");
    major_ = H5Ecreate_msg(class_, H5E_MAJOR, "Test major");
    minor_ = H5Ecreate_msg(class_, H5E_MINOR, "Cannot frobnicate");
    ASSERT_GE(minor_, 0);
  }
  void TearDown() override {
    H5Eclear2(H5E_DEFAULT);
    H5Eclose_msg(minor_);
    H5Eclose_msg(major_);
    H5Eunregister_class(class_);
  }
  void push(const std::string& desc, hid_t minor = -1) {
    H5Epush2(H5E_DEFAULT, __FILE__, "test", __LINE__, class_, major_, minor < 0 ? minor_ : minor, "%s", desc.c_str());
  }

  hid_t class_ = H5I_INVALID_HID, major_ = H5I_INVALID_HID, minor_ = H5I_INVALID_HID;
};

TEST_F(Hdf5Reason, AnEmptyStackIsAnUnknownError) { EXPECT_EQ(hdf5_reason(), "unknown HDF5 error"); }

TEST_F(Hdf5Reason, TheInnermostEntryGivesTheReasonAndTheStackIsCleared) {
  push("inode 7 is gone");  // where the problem was found
  push("while opening the group");
  EXPECT_EQ(hdf5_reason(), "Cannot frobnicate: inode 7 is gone");
  EXPECT_EQ(hdf5_reason(), "unknown HDF5 error");
}

TEST_F(Hdf5Reason, AFileDriversErrnoTextIsKeptAlone) {
  push("unable to open file: name = '/data/run/out.h5', errno = 13, error message = 'Permission denied', flags = 15");
  EXPECT_EQ(hdf5_reason(), "Cannot frobnicate: Permission denied");
}

TEST_F(Hdf5Reason, ADescriptionThatSaysTheMinorMessageStandsAlone) {
  push("cannot frobnicate the B-tree node");  // the minor message, in other case
  EXPECT_EQ(hdf5_reason(), "cannot frobnicate the B-tree node");
  push("");
  EXPECT_EQ(hdf5_reason(), "Cannot frobnicate");
}

TEST_F(Hdf5Reason, LongDescriptionsAreCutTo160Characters) {
  push(std::string(200, 'x'));
  EXPECT_EQ(hdf5_reason(), "Cannot frobnicate: " + std::string(157, 'x') + "...");
  push(std::string(160, 'y'));
  EXPECT_EQ(hdf5_reason(), "Cannot frobnicate: " + std::string(160, 'y'));
}

TEST_F(Hdf5Reason, FailuresNameTheActionObjectFileAndReason) {
  push("no such link");
  EXPECT_EQ(test_support::io_error_of([] { fail("open", "dataset /pairs/x", "r.h5"); }),
            "cannot open dataset /pairs/x in r.h5: Cannot frobnicate: no such link");
  push("bad selection");
  EXPECT_EQ(test_support::io_error_of([] { check(-1, "write", "dataset /y", "o.h5"); }),
            "cannot write dataset /y in o.h5: Cannot frobnicate: bad selection");
  EXPECT_EQ(test_support::io_error_of([] { (void)checked(-1, "create", "group /g", "o.h5"); }),
            "cannot create group /g in o.h5: unknown HDF5 error");
}

TEST_F(Hdf5Reason, SuccessesPassThrough) {
  EXPECT_EQ(checked(42, "open", "x", "f"), 42);
  EXPECT_EQ(checked(0, "open", "x", "f"), 0);
  EXPECT_EQ(test_support::io_error_of([] { check(0, "close", "x", "f"); }), "");
  EXPECT_EQ(test_support::io_error_of([] { check(1, "close", "x", "f"); }), "");
  const Handle owned = own(H5Screate(H5S_SCALAR), H5Sclose, "create", "a space", "f");
  EXPECT_TRUE(is_open(owned.get()));
  EXPECT_EQ(test_support::io_error_of([] { (void)own(-1, H5Sclose, "create", "a space", "f.h5"); }),
            "cannot create a space in f.h5: unknown HDF5 error");
}

TEST(SilenceHdf5Errors, TurnsOffTheAutomaticPrintingOfTheStack) {
  H5Eset_auto2(H5E_DEFAULT, reinterpret_cast<H5E_auto2_t>(H5Eprint2), stderr);
  silence_hdf5_errors();
  H5E_auto2_t printer = nullptr;
  void* data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &printer, &data);
  EXPECT_EQ(printer, nullptr);
}

}  // namespace
}  // namespace tdcone::hdf5::detail
