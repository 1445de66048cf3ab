// @ts-check
// The messages between the page (client.js) and the calculation worker (worker.js).
// Types only: both sides import them in JSDoc, so tsc checks every message sent and read.
// Messages are plain objects (structured clone); nothing in them is ever run as code.

/**
 * Where the runtime comes from and where a memory snapshot of it is kept.
 * @typedef {object} StartConfig
 * @property {string} pyodide  absolute URL of the Pyodide folder (ends with "/")
 * @property {string} bundle   absolute URL of the Python bundle (a zip named by content hash)
 * @property {string} root     the site's root URL (for links in explanations)
 * @property {SnapshotPlace | null} snapshot  null: no warm start, no snapshot made
 * @property {string | null} shipped  absolute URL of the site's first-visit snapshot (Zstandard),
 *   restored when none is kept here yet; null: start Python from scratch
 * @property {string | null} runtimeCache  the Cache Storage name under which the service worker
 *   keeps the runtime's files (sw.js FILES): where the worker looks for the WebAssembly before it
 *   downloads it packed, and keeps what it unpacked; null where there is no Cache Storage
 */

/**
 * @typedef {object} SnapshotPlace
 * @property {string} cache  Cache Storage name, scoped by the site's base path
 * @property {string} key    request URL of this build's snapshot (Pyodide version + bundle hash)
 */

// ---- page -> worker -----------------------------------------------------------

/**
 * Start the runtime (once per worker); answered by a {@link StartedReply} or a {@link FailedReply}.
 * @typedef {{op: "init", id: number} & StartConfig} InitRequest
 */
/**
 * api.run / api.roll in Python; answered by a {@link ResultReply} or a {@link FailedReply}.
 * @typedef {object} CallRequest
 * @property {"run" | "roll" | "compare"} op  compare: inputs are {setup, pinned}
 * @property {number} id
 * @property {string} name     calculator name, e.g. "gunplay.difficulty"
 * @property {unknown} inputs  the form's values (Python validates them)
 * @property {string} uid      the widget's id (chart element ids)
 * @property {boolean} [refine]  run: a whole fight's answers as they sharpen, each sent as a
 *   {@link PartialReply} until the settled one answers the request (a widget refines one
 *   fight at a time: a new one gives up its last)
 */
/**
 * Stop a widget's refinement (its run request is answered at once with the last answer,
 * marked ``stopped``), or go on with the one stopped (answered as a run request is; a
 * null reply when none is kept).
 * @typedef {object} SteerRequest
 * @property {"stop" | "resume"} op
 * @property {number} id
 * @property {string} uid
 */
/**
 * Keep the memory snapshot the start made in Cache Storage (the page sends it once its
 * calculators are quiet after the first result); answered by a {@link SavedReply}.
 * @typedef {{op: "save-snapshot", id: number}} SaveSnapshotRequest
 */
/** @typedef {InitRequest | CallRequest | SteerRequest | SaveSnapshotRequest} ToWorker */

// ---- worker -> page -----------------------------------------------------------
// Every message says what it is in ``kind``; all but progress answer the request ``id``.

/**
 * Download and start-up progress (no id): bytes so far of the runtime's files.
 * @typedef {object} ProgressEvent
 * @property {"progress"} kind
 * @property {"download" | "start"} phase  "start": files are in, Python is starting
 * @property {number} loaded  bytes received so far
 * @property {number} total   bytes expected (0 while unknown)
 */
/**
 * @typedef {object} StartedReply
 * @property {"started"} kind
 * @property {number} id
 * @property {"snapshot" | "shipped" | "cold"} path  which start ran: restored from the
 *   snapshot kept here, from the site's first-visit snapshot, or normal
 * @property {boolean} snapshotReady  this start makes a snapshot as it answers (keep it with save-snapshot)
 * @property {string} [dropped]  why a stored snapshot was not used (stale, damaged, refused)
 * @property {Record<string, number>} timings  ms since the worker began, per start-up step
 */
/**
 * @typedef {object} ResultReply
 * @property {"result"} kind
 * @property {number} id
 * @property {Reply | null} reply  null: a stop or resume with nothing to answer
 */
/**
 * A whole fight's newer answer while it is being refined (the request stays open).
 * @typedef {object} PartialReply
 * @property {"partial"} kind
 * @property {number} id
 * @property {Reply} reply
 */
/**
 * @typedef {object} SavedReply
 * @property {"saved"} kind
 * @property {number} id
 * @property {boolean} saved
 * @property {string} [reason]  why not (quota, no snapshot, no Cache Storage)
 */
/**
 * A request that could not be answered. ``failed`` says what went wrong, in words the page
 * turns into a plain message (never shown as is).
 * @typedef {object} FailedReply
 * @property {"failed"} kind
 * @property {number} id
 * @property {FailureKind} failed
 * @property {string} detail  for the console only
 */
/**
 * "offline": a file could not be fetched at all; "http": the server refused a file;
 * "truncated": a file ended early; "broken": the runtime failed while starting;
 * "crashed": Python failed fatally mid-computation (the worker must be replaced).
 * @typedef {"offline" | "http" | "truncated" | "broken" | "crashed"} FailureKind
 */
/**
 * The worker has begun a calculation (its answer follows): the page times the calculation
 * from here, not from when it was sent, so time spent waiting behind others never counts.
 * @typedef {object} BegunEvent
 * @property {"begun"} kind
 * @property {number} id
 */
/** @typedef {ProgressEvent | BegunEvent | StartedReply | ResultReply | PartialReply | SavedReply | FailedReply} FromWorker */

/**
 * What Python answers (calculators/runtime.py): the api response plus its HTML.
 * @typedef {object} Reply
 * @property {boolean} ok
 * @property {any} [result]
 * @property {string} [explanation]
 * @property {any} [display]
 * @property {string} [html]
 * @property {{field: string, message: string}} [error]
 * @property {any} [log]  a roll's session-log entry (calculators/render.py roll_record)
 * @property {boolean} [stopped]  a whole fight whose refining was stopped (Stop)
 */

export {};
