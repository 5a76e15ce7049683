// The writer: a read value is written back with the same value and kind for every number, strings with the
// minimal escapes, members in order, nothing added (spec/validation.md "Writing an instance").
#include <gtest/gtest.h>

#include "seqio/json.h"

namespace {

std::string roundtrip(const std::string& text) {
  seqio::ReadResult r = seqio::read(text);
  EXPECT_TRUE(r.ok) << text;
  return seqio::write(r.value);
}

TEST(Writer, KeepsNumberLiteralsAndKinds) {
  EXPECT_EQ(roundtrip("[15,15.0,1e0,-0.0,9007199254740993,0.1]"), "[15,15.0,1e0,-0.0,9007199254740993,0.1]");
}

TEST(Writer, KeepsMemberOrderEmptyContainersAndNull) {
  EXPECT_EQ(roundtrip("{ \"b\" : {}, \"a\" : [ ], \"c\" : null }"), "{\"b\":{},\"a\":[],\"c\":null}");
}

TEST(Writer, EscapesOnlyWhatJsonNeeds) {
  EXPECT_EQ(roundtrip("\"a\\\"b\\\\c\\n\\u0001\\u00e9\\/\""), "\"a\\\"b\\\\c\\n\\u0001\xC3\xA9/\"");
}

TEST(Writer, ProtocolMessagesKeepLoneSurrogatesForTheStrictReaderToRefuse) {
  // conformance/protocol.md: a vector's lone surrogate arrives escaped in a request line; the document it belongs
  // to must then be refused by wire.json-syntax (spec/validation.md), not the request line.
  seqio::ReadOptions message = seqio::contract_read_options();
  message.keep_lone_surrogates = true;
  seqio::ReadResult line = seqio::read("{\"json\": \"\\\"\\ud800x\\\"\"}", message);
  ASSERT_TRUE(line.ok);
  EXPECT_EQ(seqio::write(line.value), "{\"json\":\"\\\"\\ud800x\\\"\"}");
  seqio::ReadResult document = seqio::read(line.value.find("json")->as_string());
  ASSERT_FALSE(document.ok);
  EXPECT_EQ(document.refusals.at(0).rule, "wire.json-syntax");
}

TEST(Writer, WritesNumbersBuiltInMemory) {
  EXPECT_EQ(seqio::write(seqio::Value::number(seqio::Number::from_int64(-42))), "-42");
  EXPECT_EQ(seqio::write(seqio::Value::number(seqio::Number::from_double(2.5))), "2.5");
  EXPECT_EQ(seqio::write(seqio::Value::number(seqio::Number::from_double(3.0))), "3.0");
}

TEST(Writer, WritesDeepValuesWithoutRecursion) {
  std::string deep = std::string(200, '[') + std::string(200, ']');
  EXPECT_EQ(roundtrip(deep), deep);
}

TEST(Path, NotationOfSpec) {
  // spec/validation.md "Path notation" examples.
  EXPECT_EQ(seqio::path_index(seqio::path_member(seqio::path_member("$", "streams"), "cam"), 0), "$.streams.cam[0]");
  EXPECT_EQ(seqio::path_member("$.streams", "front cam"), "$.streams[\"front cam\"]");
  EXPECT_EQ(seqio::path_member("$.params", "\xC3\xBCn\xC3\xAF"), "$.params[\"\xC3\xBCn\xC3\xAF\"]");
  EXPECT_EQ(seqio::path_member("$.streams", "a\"b"), "$.streams[\"a\\\"b\"]");
  EXPECT_EQ(seqio::path_member("$.streams", "a\nb"), "$.streams[\"a\\nb\"]");
  EXPECT_EQ(seqio::path_member("$.params", ""), "$.params[\"\"]");
  EXPECT_EQ(seqio::path_member("$", "_x1"), "$._x1");
  EXPECT_EQ(seqio::path_member("$", "1x"), "$[\"1x\"]");
}

}  // namespace
