// One error base carrying its exit code (product.md §2): 1 failure, 2 usage, 3 no fleet.

export class FleetError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UsageError extends FleetError {
  constructor(message: string) {
    super(message, 2);
  }
}

export class NoFleetError extends FleetError {
  constructor() {
    super('no fleet is running (start one with: fleetcom up)', 3);
  }
}

/** The error was already shown to the user; only its exit code matters. */
export class ReportedError extends FleetError {}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
