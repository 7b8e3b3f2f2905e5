interface Waiter {
  exclusive: boolean;
  grant: () => void;
}

/**
 * A fair (FIFO) read/write lock for work on one shared connection.
 *
 * Shared holders run together; an exclusive holder runs alone. Requests are granted in arrival order:
 * a shared request that arrives while an exclusive one waits queues behind it, so a steady stream of
 * reads cannot starve transactions, and a transaction never sees a read slip into it.
 */
export class ReadWriteLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Waiter[] = [];

  /** Runs `work` while no exclusive holder runs. */
  shared<T>(work: () => Promise<T>): Promise<T> {
    if (!this.writer && this.queue.length === 0) {
      this.readers++;
      return this.runAndRelease(work, false);
    }
    return this.wait(false).then(() => this.runAndRelease(work, false));
  }

  /** Runs `work` alone. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (!this.writer && this.readers === 0 && this.queue.length === 0) {
      this.writer = true;
      return this.runAndRelease(work, true);
    }
    return this.wait(true).then(() => this.runAndRelease(work, true));
  }

  /** Holders and waiters, for diagnostics and tests. */
  get state(): { readers: number; writer: boolean; waiting: number } {
    return { readers: this.readers, writer: this.writer, waiting: this.queue.length };
  }

  private wait(exclusive: boolean): Promise<void> {
    return new Promise((grant) => this.queue.push({ exclusive, grant }));
  }

  private async runAndRelease<T>(work: () => Promise<T>, exclusive: boolean): Promise<T> {
    try {
      return await work();
    } finally {
      if (exclusive) this.writer = false;
      else this.readers--;
      this.grantNext();
    }
  }

  private grantNext(): void {
    while (this.queue.length > 0 && !this.writer) {
      const next = this.queue[0];
      if (next.exclusive) {
        if (this.readers > 0) return;
        this.queue.shift();
        this.writer = true;
        next.grant();
        return;
      }
      this.queue.shift();
      this.readers++;
      next.grant();
    }
  }
}
