// The reader against the wire rules of spec/validation.md: each rule, and each limit at its exact edge.
// Expected paths and rule ids are those the spec text gives for the same inputs.
#include <gtest/gtest.h>

#include <string>

#include "seqio/json.h"

namespace {

using seqio::read;

// The one refusal of a text, as "path rule".
std::string refusal(const std::string& text) {
  seqio::ReadResult r = read(text);
  if (r.ok) return "accepted";
  std::string out;
  for (const seqio::Refusal& f : r.refusals) out += (out.empty() ? "" : " | ") + f.path + " " + f.rule;
  return out;
}

std::string nested_arrays(int count, const std::string& inner) {
  return std::string(static_cast<std::size_t>(count), '[') + inner + std::string(static_cast<std::size_t>(count), ']');
}

TEST(Reader, AcceptsOneJsonValueWithJsonWhitespace) {
  EXPECT_EQ(refusal(" \t\r\n{\"a\": [1, 2.5, true, null, \"x\"]} \n"), "accepted");
}

TEST(Reader, RefusesByteOrderMark) { EXPECT_EQ(refusal("\xEF\xBB\xBF{}"), "$ wire.json-syntax"); }

TEST(Reader, RefusesNonJsonTokens) {
  EXPECT_EQ(refusal("NaN"), "$ wire.json-syntax");
  EXPECT_EQ(refusal("[Infinity]"), "$ wire.json-syntax");
  EXPECT_EQ(refusal("{\"a\": -Infinity}"), "$ wire.json-syntax");
}

TEST(Reader, RefusesTrailingTextAndOtherWhitespace) {
  EXPECT_EQ(refusal("{} {}"), "$ wire.json-syntax");
  EXPECT_EQ(refusal("\v{}"), "$ wire.json-syntax");
  EXPECT_EQ(refusal("[1,]"), "$ wire.json-syntax");
  EXPECT_EQ(refusal("01"), "$ wire.json-syntax");
}

TEST(Reader, RefusesLoneSurrogates) {
  EXPECT_EQ(refusal("\"\\ud800\""), "$ wire.json-syntax");
  EXPECT_EQ(refusal("\"\\ude00\\ud83d\""), "$ wire.json-syntax");
  EXPECT_EQ(refusal("{\"\\ud800\": 1}"), "$ wire.json-syntax");
}

TEST(Reader, ReadsSurrogatePairAsOneCodePoint) {
  seqio::ReadResult r = read("\"\\ud83d\\ude00\"");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.value.as_string(), "\xF0\x9F\x98\x80");  // U+1F600
  EXPECT_EQ(seqio::code_point_count(r.value.as_string()), 1u);
}

TEST(Reader, RefusesInvalidUtf8) {
  EXPECT_EQ(refusal("\"\xFF\""), "$ wire.json-syntax");
  EXPECT_EQ(refusal("\"\xED\xA0\x80\""), "$ wire.json-syntax");  // a surrogate encoded in UTF-8
  EXPECT_EQ(refusal("\"\xC0\xAF\""), "$ wire.json-syntax");      // overlong
}

TEST(Reader, RefusesDuplicateKeysAtTheObject) {
  EXPECT_EQ(refusal("{\"a\": 1, \"a\": 2}"), "$ wire.duplicate-key");
  EXPECT_EQ(refusal("{\"x\": [{\"b\": 1, \"b\": 1}]}"), "$.x[0] wire.duplicate-key");
  EXPECT_EQ(refusal("{\"a\": 1, \"A\": 2}"), "accepted");
}

TEST(Reader, RefusesNonFiniteNumbersAtTheirPaths) {
  EXPECT_EQ(refusal("1e400"), "$ wire.non-finite-number");
  EXPECT_EQ(refusal("[1, -1e400]"), "$[1] wire.non-finite-number");
  EXPECT_EQ(refusal("{\"a b\": 1" + std::string(400, '0') + "}"), "$[\"a b\"] wire.non-finite-number");
}

TEST(Reader, ReportsEveryDuplicateAndNonFiniteRefusal) {
  EXPECT_EQ(refusal("{\"a\": 1e400, \"b\": {\"c\": 1, \"c\": 2}}"), "$.a wire.non-finite-number | $.b wire.duplicate-key");
}

TEST(Reader, SyntaxErrorHidesOtherWireRules) {
  EXPECT_EQ(refusal("{\"a\": 1, \"a\": 1e400,}"), "$ wire.json-syntax");
}

TEST(Reader, IntegerDigitsLimitAtItsEdge) {
  // 309 digits (10^308) is a finite double; 310 to 4,300 digits are not; beyond 4,300 the integer is too long.
  EXPECT_EQ(refusal("1" + std::string(308, '0')), "accepted");
  EXPECT_EQ(refusal("1" + std::string(309, '0')), "$ wire.non-finite-number");
  EXPECT_EQ(refusal("1" + std::string(4299, '0')), "$ wire.non-finite-number");
  EXPECT_EQ(refusal("1" + std::string(4300, '0')), "$ wire.integer-too-long");
  EXPECT_EQ(refusal("[0, -1" + std::string(4300, '0') + "]"), "$[1] wire.integer-too-long");
}

TEST(Reader, FractionHasNoDigitLimit) {
  seqio::ReadResult r = read("1." + std::string(5000, '0'));
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.value.as_number().integral());
  EXPECT_FALSE(r.value.as_number().written_as_integer());
  EXPECT_EQ(r.value.as_number().digits(), "1");
}

TEST(Reader, DepthLimitAtItsEdge) {
  // A value enclosed by 200 containers is fine, by 201 refused; an empty container counts as enclosed only.
  EXPECT_EQ(refusal(nested_arrays(200, "0")), "accepted");
  EXPECT_EQ(refusal(nested_arrays(201, "0")), "$ wire.too-deep");
  EXPECT_EQ(refusal(nested_arrays(201, "")), "accepted");
  EXPECT_EQ(refusal(nested_arrays(202, "")), "$ wire.too-deep");
}

TEST(Reader, TooDeepWinsOverLaterSyntaxError) {
  EXPECT_EQ(refusal(nested_arrays(300, "0").substr(0, 400)), "$ wire.too-deep");
}

TEST(Reader, HugeNestingNeverCrashes) {
  EXPECT_EQ(refusal(std::string(1000000, '[')), "$ wire.too-deep");
}

TEST(Reader, DocumentSizeLimit) {
  seqio::ReadOptions small = seqio::contract_read_options();
  small.max_bytes = 4;
  EXPECT_EQ(read("[1,2]", small).refusals.at(0).rule, "reader.too-large");
  EXPECT_TRUE(read("[12]", small).ok);
}

TEST(Number, IntegersStayExactBeyondDoubles) {
  seqio::ReadResult r = read("[9007199254740993, 9007199254740992]");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.value.items()[0].as_number().digits(), "9007199254740993");
  EXPECT_GT(seqio::compare(r.value.items()[0].as_number(), r.value.items()[1].as_number()), 0);
}

TEST(Number, ValueModelOfFractionsAndExponents) {
  // spec/validation.md: 9007199254740993.0 is that integer exactly; 1.0e+300 is an integer; 0.1 is a double.
  EXPECT_EQ(read("9007199254740993.0").value.as_number().digits(), "9007199254740993");
  EXPECT_EQ(read("1.0e+300").value.as_number().digits(), "1" + std::string(300, '0'));
  EXPECT_FALSE(read("0.1").value.as_number().integral());
  EXPECT_TRUE(read("640.0").value.as_number().integral());
  EXPECT_TRUE(read("2.0000000000000001").value.as_number().integral());  // its nearest double is 2
}

TEST(Number, ComparesByValue) {
  auto n = [](const char* text) { return read(text).value.as_number(); };
  EXPECT_EQ(seqio::compare(n("1"), n("1.0")), 0);
  EXPECT_EQ(seqio::compare(n("1"), n("10e-1")), 0);
  EXPECT_EQ(seqio::compare(n("-0.0"), n("0")), 0);
  EXPECT_LT(seqio::compare(n("2.5"), n("3")), 0);
  EXPECT_GT(seqio::compare(n("-2"), n("-2.5")), 0);
  EXPECT_LT(seqio::compare(n("-100000000000000000000"), n("-0.5")), 0);
}

}  // namespace
