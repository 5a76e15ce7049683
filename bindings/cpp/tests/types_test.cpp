// The generated types: three-state fields (absent / null / value), integer members taking integral numbers,
// number and opaque members kept exactly, unknown members of a closed object refused.
#include <gtest/gtest.h>

#include "seqio/types.h"

namespace {

seqio::Value parse(const std::string& text) {
  seqio::ReadResult r = seqio::read(text);
  EXPECT_TRUE(r.ok) << text;
  return r.value;
}

std::string through(const std::string& type, const std::string& text) {
  seqio::Value out;
  EXPECT_TRUE(seqio::roundtrip(type, parse(text), out));
  return seqio::write(out);
}

TEST(Field, ThreeStates) {
  seqio::Field<std::int64_t> f;
  EXPECT_TRUE(f.absent());
  f.set_null();
  EXPECT_TRUE(f.is_null());
  f.set(5);
  EXPECT_TRUE(f.has_value());
  EXPECT_EQ(f.value(), 5);
  f.clear();
  EXPECT_TRUE(f.absent());
  EXPECT_THROW(f.value(), std::logic_error);
}

TEST(Types, AbsentStaysAbsentAndNullStaysNull) {
  seqio::ActRequest a = seqio::ActRequest::from_json(parse("{\"inputs\": null, \"seed\": null}"));
  EXPECT_TRUE(a.inputs.is_null());
  EXPECT_TRUE(a.seed.is_null());
  EXPECT_TRUE(a.episode_id.absent());
  EXPECT_EQ(seqio::write(a.to_json()), "{\"inputs\":null,\"seed\":null}");
}

TEST(Types, NoDefaultIsWritten) {
  // ActResponse.warnings has "default": [] in its schema; absent stays absent.
  EXPECT_EQ(through("ActResponse", "{\"outputs\": 1}"), "{\"outputs\":1}");
  EXPECT_EQ(through("ActResponse", "{\"outputs\": {}, \"warnings\": []}"), "{\"outputs\":{},\"warnings\":[]}");
}

TEST(Types, IntegerMemberTakesIntegralNumberAndWritesTheInteger) {
  seqio::Camera c = seqio::Camera::from_json(parse("{\"width\": 640.0, \"height\": 480}"));
  EXPECT_EQ(c.width, 640);
  EXPECT_EQ(seqio::write(c.to_json()), "{\"width\":640,\"height\":480}");
  EXPECT_THROW(seqio::Camera::from_json(parse("{\"width\": 2.5, \"height\": 1}")), seqio::DecodeError);
}

TEST(Types, NumberAndOpaqueMembersKeepExactValueAndKind) {
  EXPECT_EQ(through("ActRequest", "{\"inputs\": [9007199254740993, 1.0, 1e2]}"),
            "{\"inputs\":[9007199254740993,1.0,1e2]}");
  EXPECT_EQ(through("Stream", "{\"at\": [-1.0, 0], \"every\": null}"), "{\"at\":[-1.0,0],\"every\":null}");
}

TEST(Types, ClosedObjectRefusesUnknownMember) {
  try {
    seqio::Camera::from_json(parse("{\"width\": 1, \"height\": 1, \"colour\": 2}"));
    FAIL() << "an unknown member was accepted";
  } catch (const seqio::DecodeError& e) {
    EXPECT_EQ(e.path(), "$");
  }
}

TEST(Types, DecodeTextAppliesTheWireRulesFirst) {
  EXPECT_EQ(seqio::decode_text<seqio::Camera>("{\"width\": 1, \"height\": 2}").height, 2);
  try {
    seqio::decode_text<seqio::Camera>("{\"width\": 1, \"width\": 1, \"height\": 2}");
    FAIL() << "a duplicate key was accepted";
  } catch (const seqio::DecodeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("$: wire.duplicate-key", 0), 0u) << e.what();
  }
}

TEST(Types, RequiredMemberMissingIsRefused) {
  EXPECT_THROW(seqio::ActRequest::from_json(parse("{}")), seqio::DecodeError);
}

TEST(Types, NullRefusedWhereNotNullable) {
  EXPECT_THROW(seqio::ActResponse::from_json(parse("{\"outputs\": 1, \"warnings\": null}")), seqio::DecodeError);
}

TEST(Types, IntEnumIsOneMemberBit) {
  EXPECT_EQ(through("SeqFlags", "1024"), "1024");
  EXPECT_THROW(seqio::decode_as("SeqFlags", parse("3")), seqio::DecodeError);
  EXPECT_THROW(seqio::decode_as("SeqFlags", parse("8192")), seqio::DecodeError);
}

TEST(Types, StringEnumRefusesOtherStrings) {
  EXPECT_EQ(through("Camera", "{\"width\": 1, \"height\": 2, \"codec\": \"jpeg\"}"),
            "{\"width\":1,\"height\":2,\"codec\":\"jpeg\"}");
  EXPECT_THROW(seqio::Camera::from_json(parse("{\"width\": 1, \"height\": 2, \"codec\": \"gif\"}")), seqio::DecodeError);
}

}  // namespace
