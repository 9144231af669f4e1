export class DataError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'DataError';
  }
}

export class NotFoundError extends Error {
  constructor(readonly kind: string, readonly id: string) {
    super(`no ${kind} ${JSON.stringify(id)}`);
    this.name = 'NotFoundError';
  }
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
