// CommonJS: require() and module.exports.
const crypto = require("crypto");
const { v4: uuidv4 } = require("uuid");
const axios = require("axios");

// case: module/commonjs finding
async function charge(order) {
  await axios.post("https://api.provider.example/c", order, { headers: { "Idempotency-Key": uuidv4() } }); // want IDEM001
}

// case: module/commonjs silent
async function chargeStable(order) {
  await axios.post("https://api.provider.example/c", order, { headers: { "Idempotency-Key": "order-" + order.id, "X-Req": crypto.randomUUID() } });
}

module.exports = { charge, chargeStable };
