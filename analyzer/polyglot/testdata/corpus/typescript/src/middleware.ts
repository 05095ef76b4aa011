// A header written on the request this process answers stays in the
// process; one written on an outbound request's config leaves with it.
import { randomUUID } from "node:crypto";
import axios, { type InternalAxiosRequestConfig } from "axios";
import { type NextFunction, type Request, type Response } from "express";

// case: sink/incoming-request silent
export function ensureIdempotencyKey(req: Request, res: Response, next: NextFunction): void {
  if (!req.get("idempotency-key")) {
    req.headers["idempotency-key"] = randomUUID();
  }
  next();
}

const api = axios.create({ baseURL: "https://api.provider.example" });

// case: sink/incoming-request finding
api.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  config.headers["Idempotency-Key"] = randomUUID(); // want IDEM001
  return config;
});
