// The memory browser (`cairn ui`): a page of cairn's own HTTP API, without dependencies. Memory text is
// untrusted (it comes from agent sessions): everything is put on the page as text nodes, never as HTML.

// `project`: the chosen entry of /api/projects, null for the global workspace alone.
const state = { projects: null, project: null, view: "workspace" };

/** The kinds of memory an edit may give (src/requests/memoryTypes.ts). */
const MEMORY_TYPES = ["fact", "preference", "decision", "procedural", "semantic", "constraint", "note"];

/** An element with attributes and children; strings become text nodes. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "onsubmit") node.addEventListener("submit", value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Calls the API: POST with a JSON body, or GET when `body` is "GET" (the status route). */
async function api(path, body) {
  // The header lets the server accept the session cookie (a page of another origin cannot send it).
  const get = body === "GET";
  const response = await fetch(path, {
    method: get ? "GET" : "POST",
    headers: get ? { "X-Cairn-UI": "1" } : { "Content-Type": "application/json", "X-Cairn-UI": "1" },
    ...(get ? {} : { body: JSON.stringify(body ?? {}) }),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const message =
      response.status === 401
        ? "not signed in: run 'cairn ui' again for a fresh link"
        : data.error || `HTTP ${response.status}`;
    throw new Error(message);
  }
  return data;
}

function showError(error) {
  const box = document.getElementById("error");
  box.hidden = !error;
  box.textContent = error ? String(error.message ?? error) : "";
}

/** What a change did ("#3 replaced by #7"), until the next view. */
function showNotice(text) {
  const box = document.getElementById("notice");
  box.hidden = !text;
  box.textContent = text ?? "";
}

const when = (ms) => (typeof ms === "number" ? new Date(ms).toISOString().slice(0, 16).replace("T", " ") : "");

/** Replaces the view with nodes (lists flattened, null and false left out). */
function render(...nodes) {
  document
    .getElementById("view")
    .replaceChildren(...nodes.flat(2).filter((node) => node !== null && node !== undefined && node !== false));
}

async function show(view) {
  state.view = view;
  for (const button of document.querySelectorAll("#tabs button"))
    button.toggleAttribute("aria-current", button.dataset.view === view);
  for (const button of document.querySelectorAll("#tabs button"))
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
  showError(null);
  showNotice(null);
  render(el("p", {}, "loading…"));
  try {
    await views[view]();
  } catch (error) {
    render();
    showError(error);
  }
}

/**
 * Scope arguments of the chosen project: its folder (the project and global, as agents there recall),
 * else its key alone (a project known only from its memories has no folder); or the global workspace.
 */
function scoped() {
  const project = state.project;
  if (!project) return { scope: "global" };
  return project.cwd ? { cwd: project.cwd } : { scope: project.key };
}

/** A folder of the chosen project, for the requests that need one (its workspace files, the injected block). */
function projectFolder() {
  return state.project ? (state.project.cwd ?? state.project.cwds[0] ?? null) : null;
}

/** Why the chosen project has no workspace, shown where its workspace would be. */
function noWorkspaceNote() {
  const project = state.project;
  return project && !project.hasWorkspace ? el("p", { class: "no-workspace" }, project.noWorkspace) : null;
}

function memoryCard(memory, extra) {
  const gone = memory.state && memory.state !== "live";
  const provenance = memory.provenance ?? {};
  return el(
    "div",
    { class: `card memory${gone ? " gone" : ""}`, "data-id": memory.id },
    el("div", { class: "content" }, memory.content),
    el(
      "div",
      { class: "meta" },
      el("span", { class: "tag" }, memory.type),
      el("span", {}, `scope ${memory.scope}`),
      el("span", {}, `#${memory.id}`),
      memory.state ? el("span", { class: "state" }, memory.state) : null,
      memory.who ? el("span", {}, `by ${memory.who}`) : null,
      provenance.sessionId ? el("span", {}, `session ${provenance.sessionId}`) : null,
      provenance.itemFrom != null
        ? el("span", {}, `items ${provenance.itemFrom}–${provenance.itemTo ?? provenance.itemFrom}`)
        : null,
      memory.supersededBy ? el("span", {}, `replaced by #${memory.supersededBy}`) : null,
      extra,
    ),
    el("button", { class: "act history", onclick: () => openHistory(memory.id) }, "Evidence & history"),
    !gone ? el("button", { class: "act edit", onclick: () => openEdit(memory) }, "Edit") : null,
    !gone ? el("button", { class: "act forget", onclick: () => forget(memory.id) }, "Forget") : null,
    el("div", { class: "edit-box" }),
    el("div", { class: "history-box" }),
  );
}

/** Adds what recall's `expand` brought: the session items a memory came from, or its pushed transcript. */
function withEvidence(card, result) {
  const items = result.evidence ?? [];
  const transcript = result.transcript?.content;
  if (items.length === 0 && !transcript) return card;
  card.append(
    el(
      "details",
      { class: "evidence" },
      el("summary", {}, "Evidence"),
      items.map((item) => el("div", {}, el("strong", {}, `${item.role} #${item.seq}: `), item.text)),
      transcript ? el("pre", {}, transcript.length > 4000 ? `${transcript.slice(0, 4000)}…` : transcript) : null,
    ),
  );
  return card;
}

async function openHistory(id) {
  const box = document.querySelector(`.memory[data-id="${CSS.escape(String(id))}"] .history-box`);
  if (!box) return;
  try {
    const { memory, events } = await api("/api/memory/history", { id });
    const provenance = memory.provenance ?? {};
    box.replaceChildren(
      el(
        "details",
        { open: true },
        el("summary", {}, "Provenance"),
        el("pre", { class: "provenance" }, JSON.stringify(provenance, null, 2)),
        memory.why ? el("p", {}, `why: ${memory.why}`) : null,
      ),
      el(
        "table",
        { class: "events" },
        el(
          "tr",
          {},
          el("th", {}, "when"),
          el("th", {}, "event"),
          el("th", {}, "who"),
          el("th", {}, "why"),
          el("th", {}, "change"),
        ),
        events.map((event) =>
          el(
            "tr",
            {},
            el("td", {}, when(event.createdAt)),
            el("td", {}, event.event),
            el("td", {}, event.who ?? ""),
            el("td", {}, event.reason ?? ""),
            el("td", {}, [event.oldContent, event.newContent].filter(Boolean).join(" → ")),
          ),
        ),
      ),
    );
  } catch (error) {
    showError(error);
  }
}

/**
 * An edit form in the memory's card. Saving goes through the API's edit (as `cairn memory edit`): the new
 * text is stored like any remembered one and replaces the old, which stays in the history with the reason.
 */
function openEdit(memory) {
  const box = document.querySelector(`.memory[data-id="${CSS.escape(String(memory.id))}"] .edit-box`);
  if (!box) return;
  const content = el("textarea", { name: "content", rows: 3 }, memory.content);
  const type = el(
    "select",
    { name: "type" },
    MEMORY_TYPES.map((name) => el("option", { value: name, selected: name === memory.type }, name)),
  );
  const reason = el("input", { type: "text", name: "reason", placeholder: "why (kept in its history)" });
  const save = async (event) => {
    event.preventDefault();
    const body = { id: memory.id, reason: reason.value.trim() || "edited in the memory browser" };
    if (content.value.trim() !== memory.content) body.content = content.value;
    if (type.value !== memory.type) body.type = type.value;
    if (body.content === undefined && body.type === undefined) {
      showError(new Error("nothing to save: change the text or the type"));
      return;
    }
    try {
      const change = await api("/api/memory/edit", body);
      await show(state.view);
      showNotice([change.message, ...(change.warnings ?? [])].join("; "));
    } catch (error) {
      showError(error);
    }
  };
  box.replaceChildren(
    el(
      "form",
      { class: "edit", onsubmit: save },
      content,
      el(
        "div",
        {},
        type,
        " ",
        reason,
        " ",
        el("button", { type: "submit" }, "Save"),
        " ",
        el("button", { type: "button", class: "cancel", onclick: () => box.replaceChildren() }, "Cancel"),
      ),
    ),
  );
  content.focus();
}

async function forget(id) {
  if (
    !window.confirm(
      `Forget memory #${id}? It stays in its history and can be restored with 'cairn memory restore ${id}'.`,
    )
  )
    return;
  try {
    await api("/api/memory/forget", { id, reason: "forgotten in the memory browser" });
    await show(state.view);
  } catch (error) {
    showError(error);
  }
}

const views = {
  async workspace() {
    const { global } = state.projects;
    const chosen = state.project?.hasWorkspace ? state.project : null;
    const sections = [chosen ? [chosen, "root"] : null, [global, "global"]].filter(Boolean);
    const content = el("pre", { class: "file" }, "choose a file");
    const lists = sections.map(([workspace, root]) =>
      el(
        "div",
        { class: "card files" },
        el("h2", {}, root === "global" ? "Global workspace" : `Project ${workspace.name}`),
        workspace.files.length === 0 ? el("p", {}, "no memory files yet: 'cairn run' writes them") : null,
        workspace.files.map((file) =>
          el(
            "button",
            {
              "data-file": `${root}/${file}`,
              onclick: async () => {
                const body = { url: `memory://${root}/${file}`, ...(root === "root" ? { cwd: projectFolder() } : {}) };
                const read = await api("/api/read", body).catch((error) => ({ content: `(${error.message})` }));
                content.textContent = read.content;
              },
            },
            file,
          ),
        ),
      ),
    );
    const missing =
      state.project && !chosen
        ? el("div", { class: "card files" }, el("h2", {}, `Project ${state.project.label}`), noWorkspaceNote())
        : null;
    render(missing, ...lists, content);
    const first = document.querySelector(".files button");
    if (first) first.click();
  },

  async memories() {
    const { memories } = await api("/api/memory/export", { ...scoped(), all: true });
    const live = memories.filter((memory) => memory.state === "live").length;
    render(
      noWorkspaceNote(),
      el("p", {}, `${live} live, ${memories.length - live} forgotten or replaced`),
      memories.reverse().map((memory) => memoryCard(memory)),
    );
  },

  async search() {
    const input = el("input", {
      type: "search",
      name: "query",
      placeholder: "what an agent would ask…",
      required: true,
    });
    const results = el("div", { id: "results" });
    const run = async (event) => {
      event.preventDefault();
      try {
        showError(null);
        const response = await api("/api/memory/recall", { query: input.value, ...scoped(), k: 10, expand: true });
        results.replaceChildren(
          ...[
            response.results.length === 0
              ? el("p", { class: "empty" }, response.reason?.message ?? "nothing found")
              : null,
            response.results.map((result, rank) =>
              withEvidence(
                memoryCard(
                  result,
                  el(
                    "span",
                    { class: "score" },
                    `rank ${rank + 1} · score ${Number(result.score).toFixed(3)} · found by ${(result.sources ?? []).join(", ")}`,
                  ),
                ),
                result,
              ),
            ),
            response.warnings?.length ? el("p", {}, `warnings: ${response.warnings.join("; ")}`) : null,
          ]
            .flat()
            .filter(Boolean),
        );
      } catch (error) {
        showError(error);
      }
    };
    render(el("form", { onsubmit: run }, input, " ", el("button", { type: "submit" }, "Recall")), results);
  },

  async review() {
    const { flags } = await api("/api/memory/review", scoped());
    const side = (label, memory) =>
      memory ? el("div", {}, el("strong", {}, `${label} #${memory.id}: `), memory.content) : null;
    const decide = (flag, action) => async () => {
      try {
        await api("/api/memory/review/resolve", { flag, action });
        await show("review");
      } catch (error) {
        showError(error);
      }
    };
    render(
      flags.length === 0 ? el("p", { class: "empty" }, "nothing to review") : null,
      flags.map((entry) =>
        el(
          "div",
          { class: "card review", "data-flag": entry.flag },
          el(
            "div",
            { class: "meta" },
            el("span", {}, `flag ${entry.flag}`),
            el("span", {}, entry.detector),
            el("span", {}, when(entry.createdAt)),
          ),
          el("p", {}, entry.reason),
          side("flagged", entry.memory),
          side("related", entry.related),
          ["keep", "supersede", "forget"].map((action) =>
            el("button", { class: `act ${action}`, onclick: decide(entry.flag, action) }, action),
          ),
        ),
      ),
    );
  },

  async sessions() {
    const { sessions } = await api("/api/sessions", { limit: 200 });
    render(
      sessions.length === 0 ? el("p", { class: "empty" }, "no sessions yet: 'cairn scan' collects them") : null,
      el(
        "table",
        {},
        el(
          "tr",
          {},
          ["updated", "agent", "items", "state", "title", "folder"].map((h) => el("th", {}, h)),
        ),
        sessions.map((s) =>
          el(
            "tr",
            { class: "session" },
            el("td", {}, (s.updatedAt ?? "").slice(0, 16).replace("T", " ")),
            el("td", {}, s.agent),
            el("td", {}, s.items),
            el("td", { class: "state" }, s.state),
            el("td", {}, s.title ?? ""),
            el("td", {}, s.cwd ?? ""),
          ),
        ),
      ),
    );
  },

  async inject() {
    const input = el("input", {
      type: "text",
      name: "folder",
      value: projectFolder() ?? "",
      placeholder: "/absolute/path/of/a/folder",
    });
    const out = el("pre", { class: "injected" });
    const run = async (event) => {
      event?.preventDefault();
      try {
        showError(null);
        const injection = await api("/api/inject", { cwd: input.value });
        out.textContent = injection.text || injection.reason?.message || "(empty)";
      } catch (error) {
        showError(error);
      }
    };
    render(el("form", { onsubmit: run }, input, " ", el("button", { type: "submit" }, "Show")), out);
    if (input.value) await run();
  },

  async health() {
    const status = await api("/api/status", "GET");
    const daemon = status.daemon ?? {};
    const kinds = Object.keys(status.jobs ?? {}).sort();
    const states = [...new Set(kinds.flatMap((kind) => Object.keys(status.jobs[kind])))].sort();
    render(
      el(
        "div",
        { class: "card health" },
        el(
          "div",
          {},
          `sessions ${status.sessions} · live memories ${status.memories?.live ?? 0} · review flags open ${status.reviews?.open ?? 0}`,
        ),
        el(
          "div",
          {},
          daemon.schedule
            ? `pipeline every ${daemon.schedule.intervalSeconds} s, ${daemon.running ? "running now" : "idle"}`
            : "this server runs no pipeline schedule",
        ),
        el("div", {}, status.phase2?.dirty ? "phase 2: new input waiting" : "phase 2: up to date"),
        status.dead?.jobs
          ? el("div", { class: "dead" }, `${status.dead.jobs} jobs failed for good: ${status.dead.retry ?? ""}`)
          : null,
        status.memories?.embeddingProblem ? el("div", {}, `embeddings: ${status.memories.embeddingProblem}`) : null,
      ),
      el(
        "table",
        { class: "jobs" },
        el(
          "tr",
          {},
          el("th", {}, "job kind"),
          states.map((state) => el("th", {}, state)),
        ),
        kinds.map((kind) =>
          el(
            "tr",
            {},
            el("td", {}, kind),
            states.map((state) => el("td", {}, status.jobs[kind][state] ?? 0)),
          ),
        ),
      ),
      status.failedJobs?.length
        ? el(
            "table",
            { class: "failed" },
            el(
              "tr",
              {},
              ["kind", "key", "state", "attempts", "error"].map((h) => el("th", {}, h)),
            ),
            status.failedJobs.map((job) =>
              el(
                "tr",
                {},
                [job.kind, job.key, job.status, job.attempts, job.error ?? ""].map((v) => el("td", {}, v)),
              ),
            ),
          )
        : null,
    );
  },
};

async function start() {
  for (const button of document.querySelectorAll("#tabs button"))
    button.addEventListener("click", () => show(button.dataset.view));
  try {
    state.projects = await api("/api/projects");
  } catch (error) {
    showError(error);
    return;
  }
  const { projects } = state.projects;
  const select = document.getElementById("project");
  select.replaceChildren(
    el("option", { value: "" }, "global only"),
    ...projects.map((project) =>
      el("option", { value: project.key }, project.hasWorkspace ? project.label : `${project.label} (no workspace)`),
    ),
  );
  state.project = projects[0] ?? null;
  select.value = state.project?.key ?? "";
  // A project without a workspace has nothing on the workspace view but why: its memories are what it has.
  const firstView = () =>
    state.project && !state.project.hasWorkspace && state.view === "workspace" ? "memories" : state.view;
  select.addEventListener("change", () => {
    state.project = projects.find((project) => project.key === select.value) ?? null;
    show(firstView());
  });
  await show(firstView());
}

start();
