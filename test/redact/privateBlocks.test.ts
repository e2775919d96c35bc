import { describe, expect, it } from "vitest";
import {
  guardText,
  guardTurns,
  PRIVATE_MARKER,
  PRIVATE_OPEN_MARKER,
  redactText,
  stripPrivate,
  stripPrivateFrom,
  stripUrlCredentials,
} from "../../src/redact/index.js";

describe("stripPrivate: what the user fenced off with <private> is never kept", () => {
  it("removes a block and leaves one marker, tags in any case", () => {
    expect(stripPrivate("deploy <private>my diary</private> now")).toBe(`deploy ${PRIVATE_MARKER} now`);
    expect(stripPrivate("a <PRIVATE>x</Private> b <Private reason='mine'>y</PRIVATE> c")).toBe(
      `a ${PRIVATE_MARKER} b ${PRIVATE_MARKER} c`,
    );
  });

  it("removes the rest of the text after an unclosed <private>", () => {
    expect(stripPrivate("keep this <private>the rest\nof the message")).toBe(`keep this ${PRIVATE_OPEN_MARKER}`);
  });

  it("keeps nested blocks closed only by the outer tag, and drops a stray closing tag", () => {
    expect(stripPrivate("a <private>x <private>y</private> z</private> b")).toBe(`a ${PRIVATE_MARKER} b`);
    expect(stripPrivate("a </private> b")).toBe("a  b");
  });

  it("leaves text without the tag as it is, including look-alikes", () => {
    const text = "a <privateKey> field and <div>private</div>";
    expect(stripPrivate(text)).toBe(text);
  });

  it("is idempotent together with redaction", () => {
    const once = guardText("token ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u <private>secret plan</private>");
    expect(once).not.toContain("secret plan");
    expect(once).not.toContain("ghp_R7kW2pQ9");
    expect(guardText(once)).toBe(once);
  });
});

describe("stripUrlCredentials: a recorded remote keeps no credential", () => {
  it("drops user and token from http(s) remotes", () => {
    expect(
      stripUrlCredentials("https://x-access-token:ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u@github.com/acme/app.git"),
    ).toBe("https://github.com/acme/app.git");
    expect(stripUrlCredentials("https://ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u@github.com/acme/app")).toBe(
      "https://github.com/acme/app",
    );
  });

  it("keeps an ssh account name and scp-style remotes, which carry no secret", () => {
    expect(stripUrlCredentials("ssh://git@github.com/acme/app.git")).toBe("ssh://git@github.com/acme/app.git");
    expect(stripUrlCredentials("ssh://git:pw@github.com/acme/app.git")).toBe("ssh://github.com/acme/app.git");
    expect(stripUrlCredentials("git@github.com:acme/app.git")).toBe("git@github.com:acme/app.git");
  });
});

describe("guardText around a private block", () => {
  it("still redacts a secret that ends right before the block", () => {
    const guarded = guardText("deploy with password=Sup3rS3cretPw! <private>my salary is 123k</private>");
    expect(guarded).not.toContain("Sup3rS3cretPw");
    expect(guarded).not.toContain("salary");
    expect(guardText(guarded)).toBe(guarded);
  });
});

describe("redactText next to an earlier marker", () => {
  it("redacts a value that a marker follows on the same line", () => {
    expect(redactText("password=Sup3rS3cretPw! [REDACTED:github-token]")).toBe(
      "password=[REDACTED:password-assignment] [REDACTED:github-token]",
    );
  });
});

describe("a <private> block left open continues in the user's next message", () => {
  it("drops what precedes </private> in a text that starts inside a block", () => {
    expect(stripPrivateFrom("MARK2 </private> public", true)).toEqual({
      text: `${PRIVATE_MARKER} public`,
      open: false,
    });
    expect(stripPrivateFrom("still private", true)).toEqual({ text: PRIVATE_OPEN_MARKER, open: true });
    expect(stripPrivateFrom("MARK2 </private> public", false)).toEqual({ text: "MARK2  public", open: false });
  });

  it("carries the block across a session's user messages, not through the assistant's", () => {
    const items = [
      { role: "user", text: "deploy notes <private>MARK1" },
      { role: "assistant", text: "noted </private> ok" },
      { role: "user", text: "MARK2 still" },
      { role: "user", text: "MARK3 </private> public part" },
      { role: "user", text: "MARK4 </private> stays" },
    ];
    expect(guardTurns(items)).toBe(false);
    expect(items.map((item) => item.text)).toEqual([
      `deploy notes ${PRIVATE_OPEN_MARKER}`,
      "noted  ok",
      PRIVATE_OPEN_MARKER,
      `${PRIVATE_MARKER} public part`,
      "MARK4  stays",
    ]);
  });

  it("starts inside a block when the stored messages left one open, and says when one stays open", () => {
    const items = [{ role: "user", text: "MARK2 token ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u" }];
    expect(guardTurns(items, true)).toBe(true);
    expect(items[0]!.text).toBe(PRIVATE_OPEN_MARKER);
  });
});
