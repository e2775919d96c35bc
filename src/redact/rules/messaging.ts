import type { SecretRule } from "../types.js";

/** Chat, mail and SMS services, and payment processors. */
export const messagingRules: SecretRule[] = [
  {
    name: "slack-token",
    family: "messaging",
    pattern: /(?<![A-Za-z0-9])(?:xox[abposrce]|xapp|xoxe\.xox[bp])-[A-Za-z0-9-]{10,512}/g,
    glued: true,
    keywords: ["xox", "xapp-"],
  },
  {
    // The path after /services/ is the whole credential; the host stays for context.
    name: "slack-webhook",
    family: "messaging",
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/+-]{20,256})/g,
    group: 1,
    keywords: ["hooks.slack.com"],
  },
  {
    // Bot tokens: base64 of the bot's user id, a timestamp, an HMAC. No literal prefix, so this
    // rule always runs; the fixed shape (three dot-separated runs of fixed length) keeps it exact.
    name: "discord-bot-token",
    family: "messaging",
    pattern: /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
    // 1 + 23 + 1 + 6 + 1 + 27 characters at least.
    minLength: 59,
    validate: (token) => /\d/.test(token),
  },
  {
    name: "discord-webhook",
    family: "messaging",
    pattern: /discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/([A-Za-z0-9_-]{60,100})/g,
    group: 1,
    keywords: ["discord"],
  },
  {
    name: "telegram-bot-token",
    family: "messaging",
    pattern: /(?<![0-9])\d{6,12}:AA[A-Za-z0-9_-]{32,34}(?![A-Za-z0-9_-])/g,
    keywords: [":aa"],
  },
  {
    name: "twilio-api-key",
    family: "messaging",
    pattern: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g,
    keywords: ["sk"],
    after: /[0-9a-fA-F]{32}/,
  },
  {
    name: "sendgrid-api-key",
    family: "messaging",
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    glued: true,
    keywords: ["sg."],
  },
  {
    name: "mailgun-api-key",
    family: "messaging",
    pattern: /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9])/g,
    keywords: ["key-"],
  },
  {
    // Newer Mailgun keys have no prefix: 32 hex, 8 hex, 8 hex. The shape alone is distinctive. The
    // match starts at the first dash and looks back for the 32 hex digits.
    name: "mailgun-api-key",
    family: "messaging",
    pattern: /-(?<=(?<![A-Za-z0-9-])([0-9a-f]{32})-)[0-9a-f]{8}-[0-9a-f]{8}(?![A-Za-z0-9-])/g,
    // 32 + 1 + 8 + 1 + 8 characters at least (the 32 are read behind the match).
    minLength: 50,
    group: 1,
    throughMatchEnd: true,
  },
  {
    name: "mailchimp-api-key",
    family: "messaging",
    pattern: /-(?<=(?<![A-Za-z0-9])([0-9a-f]{32})-)us\d{1,2}(?![A-Za-z0-9])/g,
    group: 1,
    throughMatchEnd: true,
    keywords: ["-us"],
  },
  {
    name: "stripe-key",
    family: "payments",
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}(?![A-Za-z0-9_])/g,
    glued: true,
    keywords: ["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"],
  },
  {
    name: "stripe-webhook-secret",
    family: "payments",
    pattern: /(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=]{24,128}/g,
    glued: true,
    keywords: ["whsec_"],
  },
  {
    name: "square-token",
    family: "payments",
    pattern: /(?<![A-Za-z0-9])sq0(?:atp|csp)-[A-Za-z0-9_-]{22,64}/g,
    glued: true,
    keywords: ["sq0atp-", "sq0csp-"],
  },
  {
    name: "braintree-token",
    family: "payments",
    pattern: /access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}/g,
    keywords: ["access_token$"],
  },
];
