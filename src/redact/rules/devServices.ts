import type { SecretRule } from "../types.js";
import { ASSIGN } from "./fragments.js";

/** Source hosting, package registries and developer SaaS. */
export const devServiceRules: SecretRule[] = [
  {
    name: "github-token",
    family: "vcs",
    pattern: /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g,
    keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
  },
  {
    name: "github-fine-grained-token",
    family: "vcs",
    pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{40,255}(?![A-Za-z0-9_])/g,
    keywords: ["github_pat_"],
  },
  {
    // Personal, deploy, runner, CI job, feed, OAuth... tokens; newer ones add ".01.xxxx" routing.
    name: "gitlab-token",
    family: "vcs",
    pattern:
      /(?<![A-Za-z0-9])(?:glpat|gldt|glrt|glptt|glcbt|glimt|glagent|gloas|glsoat|glffct|glft|glwt)-[A-Za-z0-9_-]{20,255}(?:\.[A-Za-z0-9_-]{1,64}){0,4}/g,
    keywords: [
      "glpat-",
      "gldt-",
      "glrt-",
      "glptt-",
      "glcbt-",
      "glimt-",
      "glagent-",
      "gloas-",
      "glsoat-",
      "glffct-",
      "glft-",
      "glwt-",
    ],
  },
  {
    name: "gitlab-runner-registration-token",
    family: "vcs",
    pattern: /(?<![A-Za-z0-9])GR1348941[A-Za-z0-9_-]{20,64}/g,
    keywords: ["gr1348941"],
  },
  {
    // Atlassian API tokens (ATATT), Confluence/Jira tokens (ATCTT), Bitbucket app passwords (ATBB).
    name: "atlassian-token",
    family: "vcs",
    pattern: /(?<![A-Za-z0-9])(?:ATATT3|ATCTT3|ATBB|ATOAT)[A-Za-z0-9_=-]{24,512}/g,
    keywords: ["atatt3", "atctt3", "atbb", "atoat"],
  },
  {
    // Older Atlassian tokens are 24 bare characters: only next to the product name.
    name: "atlassian-token",
    family: "vcs",
    pattern: new RegExp(
      String.raw`(?:atlassian|jira|confluence|bitbucket)[A-Za-z0-9_.-]{0,24}(?:\\?["'])?${ASSIGN}(?:\\?["'])?([A-Za-z0-9]{24})(?![A-Za-z0-9])`,
      "gi",
    ),
    group: 1,
    keywords: ["atlassian", "jira", "confluence", "bitbucket"],
  },
  {
    name: "npm-token",
    family: "registry",
    pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    keywords: ["npm_"],
  },
  {
    // Macaroons whose base64 starts "AgEIcHlwaS5vcmc" (pypi.org) or "AgENdGVzdC5weXBp" (test).
    name: "pypi-token",
    family: "registry",
    pattern: /(?<![A-Za-z0-9])pypi-Ag[A-Za-z0-9_-]{50,1024}/g,
    keywords: ["pypi-ag"],
  },
  {
    name: "docker-hub-token",
    family: "registry",
    pattern: /(?<![A-Za-z0-9])dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,128}/g,
    keywords: ["dckr_"],
  },
  {
    name: "rubygems-token",
    family: "registry",
    pattern: /(?<![A-Za-z0-9])rubygems_[a-f0-9]{48}(?![A-Za-z0-9])/g,
    keywords: ["rubygems_"],
  },
  {
    name: "nuget-api-key",
    family: "registry",
    pattern: /(?<![A-Za-z0-9])oy2[a-z0-9]{43}(?![A-Za-z0-9])/g,
    keywords: ["oy2"],
  },
  {
    name: "crates-io-token",
    family: "registry",
    pattern: /(?<![A-Za-z0-9])cio[A-Za-z0-9]{32}(?![A-Za-z0-9])/g,
    keywords: ["cio"],
  },
  {
    name: "shopify-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])/g,
    keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
  },
  {
    name: "linear-api-key",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])lin_(?:api|oauth)_[A-Za-z0-9]{40,64}(?![A-Za-z0-9])/g,
    keywords: ["lin_api_", "lin_oauth_"],
  },
  {
    name: "notion-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])(?:ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9_])/g,
    keywords: ["ntn_", "secret_"],
  },
  {
    name: "figma-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])fig[dou]_[A-Za-z0-9_-]{38,64}/g,
    keywords: ["figd_", "figo_", "figu_"],
  },
  {
    name: "postman-api-key",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![A-Za-z0-9])/g,
    keywords: ["pmak-"],
  },
  {
    name: "grafana-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/]{32,512}={0,2})/g,
    keywords: ["glsa_", "glc_"],
  },
  {
    name: "new-relic-key",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])NR(?:AK|II|JS|AA)-[A-Za-z0-9]{19,40}(?![A-Za-z0-9])/g,
    keywords: ["nrak-", "nrii-", "nrjs-", "nraa-"],
  },
  {
    name: "sentry-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])(?:sntrys_eyJ[A-Za-z0-9_=+/-]{40,1024}|sntryu_[a-f0-9]{64})/g,
    keywords: ["sntrys_", "sntryu_"],
  },
  {
    name: "supabase-key",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,128})(?![A-Za-z0-9])/g,
    keywords: ["sbp_", "sb_secret_"],
  },
  {
    name: "planetscale-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}/g,
    keywords: ["pscale_"],
  },
  {
    name: "sourcegraph-token",
    family: "saas",
    pattern: /(?<![A-Za-z0-9])sgp_[A-Za-z0-9_]{40,80}(?![A-Za-z0-9_])/g,
    keywords: ["sgp_"],
  },
];
