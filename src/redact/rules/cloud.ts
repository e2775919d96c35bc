import { looksRandom } from "../gates.js";
import type { SecretRule } from "../types.js";
import { ASSIGN, LINE_PREFIX } from "./fragments.js";

/** AWS documents AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY everywhere. */
const isNotAwsExample = (secret: string) => !secret.includes("EXAMPLE");

/** Cloud providers: AWS, Google Cloud, Azure, Alibaba, DigitalOcean, Heroku, HashiCorp, Databricks. */
export const cloudRules: SecretRule[] = [
  {
    name: "aws-access-key-id",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    validate: isNotAwsExample,
  },
  {
    // A key id followed by its secret key with no names, as the console's CSV, a `aws configure`
    // answer or a chat message pastes them: "AKIA... wJalr...". The id is redacted by the rule
    // above; 40 characters of base64 right after one are its secret.
    name: "aws-secret-access-key",
    family: "cloud",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?:[ \t"'\x60,;:|=]|\/[ \t]|\\"|\r?\n${LINE_PREFIX}){1,12}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      "g",
    ),
    group: 1,
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    validate: (secret) => isNotAwsExample(secret) && looksRandom(secret, 40),
  },
  {
    // 40 characters of base64 are only a secret key next to its name; alone they could be anything.
    name: "aws-secret-access-key",
    family: "cloud",
    pattern: new RegExp(
      String.raw`(?:aws[_ .-]?secret[_ .-]?(?:access[_ .-]?)?key|secret[_ .-]?access[_ .-]?key)(?:\\?["'])?(?:${ASSIGN}|[ \t]{1,8})(?:\\?["'])?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      "gi",
    ),
    group: 1,
    keywords: ["secret"],
    after: /[_ .-]?(?:access[_ .-]?)?key/i,
    validate: isNotAwsExample,
  },
  {
    name: "aws-session-token",
    family: "cloud",
    pattern: new RegExp(
      String.raw`(?:aws[_ .-]?session[_ .-]?token|aws[_ .-]?security[_ .-]?token|sessiontoken)(?:\\?["'])?(?:${ASSIGN}|[ \t]{1,8})(?:\\?["'])?([A-Za-z0-9/+=]{100,4096})`,
      "gi",
    ),
    group: 1,
    keywords: ["token"],
    after: new RegExp(String.raw`(?:\\?["'])?(?:${ASSIGN}|[ \t]{1,8})(?:\\?["'])?[A-Za-z0-9/+=]{100}`, "i"),
  },
  {
    name: "gcp-api-key",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
    glued: true,
    keywords: ["aiza"],
  },
  {
    // The key itself is caught by private-key; its id names it in Google's key list. In the JSON
    // file, a Python dict, YAML, or an environment variable (GOOGLE_PRIVATE_KEY_ID=...).
    name: "gcp-private-key-id",
    family: "cloud",
    pattern: new RegExp(
      String.raw`private_key_id(?:\\{0,3}["'])?${ASSIGN}(?:\\{0,3}["'])?([a-f0-9]{40})(?![A-Za-z0-9])`,
      "gi",
    ),
    group: 1,
    keywords: ["private_key_id"],
  },
  {
    name: "google-oauth-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9.])ya29\.[0-9A-Za-z_-]{20,4096}/g,
    glued: true,
    keywords: ["ya29."],
  },
  {
    name: "google-oauth-client-secret",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g,
    glued: true,
    keywords: ["gocspx-"],
  },
  {
    name: "google-refresh-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9_/-])1\/\/0[0-9A-Za-z_-]{30,512}/g,
    keywords: ["1//0"],
  },
  {
    name: "azure-storage-key",
    family: "cloud",
    pattern: /(?<![A-Za-z])(?:AccountKey|SharedAccessKey)[ \t]{0,4}=[ \t]{0,4}([A-Za-z0-9+/]{20,256}={0,2})/gi,
    group: 1,
    keywords: ["accountkey", "sharedaccesskey"],
  },
  {
    // The signature of a SAS URL or SharedAccessSignature; the other parameters are not secret.
    name: "azure-sas-signature",
    family: "cloud",
    pattern: /[?&;]sig=([A-Za-z0-9%+/=]{30,256})/g,
    group: 1,
    keywords: ["sig="],
  },
  {
    name: "azure-ad-client-secret",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    keywords: ["q~"],
  },
  {
    name: "alibaba-access-key-id",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])/g,
    keywords: ["ltai"],
  },
  {
    name: "digitalocean-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["_v1_"],
  },
  {
    // Classic Heroku keys are bare UUIDs: only next to "heroku" do they mean anything.
    name: "heroku-api-key",
    family: "cloud",
    pattern: new RegExp(
      String.raw`heroku[A-Za-z0-9_. -]{0,32}(?:\\?["'])?(?:${ASSIGN}|[ \t]{1,8})(?:\\?["'])?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?![0-9A-Za-z-])`,
      "gi",
    ),
    group: 1,
    keywords: ["heroku"],
  },
  {
    name: "heroku-platform-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])HRKU-[A-Za-z0-9_-]{20,128}/g,
    glued: true,
    keywords: ["hrku-"],
  },
  {
    name: "vault-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9.])hv[sbr]\.[A-Za-z0-9_-]{24,512}/g,
    glued: true,
    keywords: ["hvs.", "hvb.", "hvr."],
  },
  {
    name: "terraform-cloud-token",
    family: "cloud",
    pattern: /\.(?<=(?<![A-Za-z0-9])([A-Za-z0-9]{14})\.)atlasv1\.[A-Za-z0-9_=-]{60,128}/g,
    group: 1,
    throughMatchEnd: true,
    keywords: ["atlasv1"],
  },
  {
    name: "databricks-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["dapi"],
  },
  {
    name: "pulumi-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])pul-[a-f0-9]{40}(?![A-Za-z0-9])/g,
    glued: true,
    keywords: ["pul-"],
  },
  {
    name: "fly-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9])fm[12][ar]?_[A-Za-z0-9+/=_-]{50,4096}/g,
    glued: true,
    keywords: ["fm1", "fm2"],
  },
  {
    name: "doppler-token",
    family: "cloud",
    pattern: /(?<![A-Za-z0-9.])dp\.(?:st|ct|sa|scim|audit|pt)\.[A-Za-z0-9_.-]{40,256}/g,
    glued: true,
    keywords: ["dp."],
  },
  {
    // The signature of a presigned S3 or GCS URL, or a CloudFront signed URL: whoever has it can
    // fetch the object until the URL expires. The other parameters are not secret.
    name: "signed-url-signature",
    family: "cloud",
    pattern: /signature=(?<=[?&](?:x-amz-|x-goog-)?signature=)([A-Za-z0-9%+/=_~-]{20,2048})/gi,
    group: 1,
    keywords: ["signature="],
  },
];
