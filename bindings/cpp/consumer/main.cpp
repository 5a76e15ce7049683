// A user of the installed package: validate one document, round-trip one type, print the versions it carries.
// Exit 0 only when the document is refused with the spec's rule at the spec's path and the type keeps its members.
#include <iostream>

#include "seqio/generated_contract.h"
#include "seqio/types.h"
#include "seqio/validate.h"

int main() {
  seqio::Validation v = seqio::validate("Camera", R"({"width": 640, "height": 0})");
  bool refused = !v.valid && !v.refusals.empty() && v.refusals[0].path == "$.height" && v.refusals[0].rule == "minimum";
  seqio::Camera camera = seqio::Camera::from_json(seqio::read(R"({"width": 640.0, "height": 480, "codec": null})").value);
  std::string written = seqio::write(camera.to_json());
  bool kept = written == R"({"width":640,"height":480,"codec":null})";
  std::cout << "seqio " << seqio::contract::PACKAGE_VERSION << ", contract " << seqio::contract::CONTRACT_VERSION
            << ": validate " << (refused ? "ok" : "WRONG") << ", round-trip " << written << "\n";
  return refused && kept ? 0 : 1;
}
