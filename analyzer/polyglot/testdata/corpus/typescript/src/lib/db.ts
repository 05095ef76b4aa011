// The client cached on the global object across hot reloads, as Next.js
// apps do: the value is the PrismaClient the right side makes.
import { PrismaClient } from "@prisma/client";

const makeClient = () => new PrismaClient({});

export const db = (globalThis as any).prisma ?? makeClient();
