import type { Database } from "better-sqlite3";
import { openDatabase } from "./connection.js";
import { JobQueue, type JobQueueOptions } from "./queue/jobQueue.js";
import { ItemsRepository } from "./repositories/itemsRepository.js";
import { MetaRepository } from "./repositories/metaRepository.js";
import { SessionsRepository } from "./repositories/sessionsRepository.js";
import { SourceFilesRepository } from "./repositories/sourceFilesRepository.js";
import { Stage1Repository } from "./repositories/stage1Repository.js";

/**
 * One facade over the store: a repository per table group, sharing one connection. Repositories hold
 * no data caches, because the CLI, the daemon and several workers share the same SQLite file.
 */
export class Storage {
  readonly sessions: SessionsRepository;
  readonly items: ItemsRepository;
  readonly sourceFiles: SourceFilesRepository;
  readonly stage1: Stage1Repository;
  readonly meta: MetaRepository;
  readonly jobs: JobQueue;

  private constructor(
    readonly db: Database,
    readonly vecError: string | null,
    queue: JobQueueOptions,
  ) {
    this.sessions = new SessionsRepository(db);
    this.items = new ItemsRepository(db);
    this.sourceFiles = new SourceFilesRepository(db);
    this.stage1 = new Stage1Repository(db);
    this.meta = new MetaRepository(db);
    this.jobs = new JobQueue(db, queue);
  }

  static open(path: string, queue: JobQueueOptions = {}): Storage {
    const { db, vecError } = openDatabase(path);
    return new Storage(db, vecError, queue);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
