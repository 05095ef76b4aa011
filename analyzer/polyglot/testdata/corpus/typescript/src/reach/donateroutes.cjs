const cron = require("node-cron");
const donate = require("./donate.cjs");
const renewAll = require("./renew.cjs");

async function routes(fastify) {
  fastify.post("/donation", (req, res) => donate(req, res, fastify));
}
cron.schedule("0 * * * *", () => renewAll(dueRows()));
module.exports = routes;
