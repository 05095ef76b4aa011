// The project's own ledger: its transfers live in this process's database.
export class Ledger {
  transfers = {
    async create(entry: { amount: number; destination: string }): Promise<void> {
      void entry;
    },
  };
}
