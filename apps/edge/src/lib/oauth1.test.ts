// OAuth 1.0 signing (RFC 5849), checked against the published examples: RFC 5849's signature base string (section
// 3.4.1.1) and the signed request of OAuth Core 1.0's appendix A.5 (photos.example.net).
import { describe, expect, it } from "vitest";
import { hmacSha1Signature, oauthEncode, signatureBaseString, signedUrl } from "./oauth1.ts";

describe("OAuth 1.0 signatures", () => {
  it("builds RFC 5849's example signature base string (encoding, sorting, repeated names)", () => {
    const base = signatureBaseString("POST", "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", [
      ["oauth_consumer_key", "9djdj82h48djs9d2"],
      ["oauth_token", "kkk9d7dh3k39sjv7"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "7d8f3e4a"],
      // The form body's parameters.
      ["c2", ""],
      ["a3", "2 q"],
    ]);
    expect(base).toBe(
      "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7",
    );
  });

  it("signs OAuth Core 1.0's appendix A.5 request to the published signature", () => {
    const base = signatureBaseString("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original", [
      ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
      ["oauth_token", "nnch734d00sl2jdk"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "1191242096"],
      ["oauth_nonce", "kllo9940pd9333jh"],
      ["oauth_version", "1.0"],
    ]);
    expect(base).toBe(
      "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal",
    );
    expect(hmacSha1Signature(base, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00")).toBe("tR3+Ty81lMeYAr/Fid0kMTYa/WM=");
  });

  it("encodes all but the unreserved characters", () => {
    expect(oauthEncode("a b!*'()~-._/+=&")).toBe("a%20b%21%2A%27%28%29~-._%2F%2B%3D%26");
  });

  it("puts the protocol parameters and a signature that verifies into a GET's query, keeping its own", () => {
    const url = new URL(
      signedUrl(
        "https://previews.example/clip/123?country=GB",
        { key: "k3y", secret: "s3cret" },
        1_700_000_000_500,
        "n0nce",
      ),
    );
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      country: "GB",
      oauth_consumer_key: "k3y",
      oauth_nonce: "n0nce",
      oauth_signature_method: "HMAC-SHA1",
      oauth_timestamp: "1700000000",
      oauth_version: "1.0",
    });
    const { oauth_signature: signature, ...rest } = q;
    const unsigned = `${url.origin}${url.pathname}`;
    const expected = hmacSha1Signature(signatureBaseString("GET", unsigned, Object.entries(rest)), "s3cret");
    expect(signature).toBe(expected);
    expect(signature).not.toBe(hmacSha1Signature(signatureBaseString("GET", unsigned, Object.entries(rest)), "other"));
  });
});
