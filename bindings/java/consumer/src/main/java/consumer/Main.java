// The package check: a program that has only the installed seq-io artifact validates one document, round-trips
// one type, and prints the versions the package carries; any other outcome exits non-zero.
// WHY: it proves the jar holds the schemas, the identifier table and the generated types, with no checkout.
package consumer;

import example.seqio.Contract;
import example.seqio.types.Camera;
import example.seqio.validate.Validator;

public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    Validator.Outcome refused = new Validator().validate("Camera", "{\"width\": 640, \"height\": 0}");
    if (refused.valid() || !refused.refusals().get(0).path().equals("$.height")) {
      throw new AssertionError("expected a refusal at $.height, got " + refused);
    }
    String text = "{\"width\":640.0,\"height\":480,\"codec\":null}";
    String back = Camera.decode(text).encode();
    if (!back.equals("{\"width\":640,\"height\":480,\"codec\":null}")) {
      throw new AssertionError("round trip wrote " + back);
    }
    System.out.println("seq-io " + Contract.PACKAGE_VERSION + " (contract " + Contract.CONTRACT_VERSION
        + "): validated one document, round-tripped one Camera");
  }
}
