import express from "express";
import { PayController } from "./controller";

const router = express.Router();
router.post("/pay", PayController.pay);

export default router;
