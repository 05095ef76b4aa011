const express = require("express");
const { refundRoute } = require("./controller.cjs");

const router = express.Router();
router.post("/refunds", requireUser, refundRoute);

function requireUser(req, res, next) {
  next();
}

module.exports = router;
