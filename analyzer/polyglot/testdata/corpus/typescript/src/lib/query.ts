// The project's wrapper of the driver, as most Express services write it:
// callers hand it their SQL.
import { Pool } from "pg";

const pool = new Pool();

export const query = (text: string, params?: unknown[]) => pool.query(text, params);

export async function queryOne(text: string, params?: unknown[]) {
  const { rows } = await query(text, params);
  return rows[0];
}
