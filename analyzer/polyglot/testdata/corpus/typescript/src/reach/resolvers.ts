// A GraphQL resolver map: the members of Mutation answer HTTP requests.
import Stripe from "stripe";

const stripe = new Stripe(process.env.STRIPE_KEY!);

const addCredit = async (_: unknown, { input }: any) =>
  stripe.paymentIntents.create({ amount: input.cents, currency: "usd", customer: input.customer });

// case: reach/resolver-map silent
export default {
  Mutation: { addCredit },
};

// case: reach/resolver-map finding
// The same resolver body, in a map the schema does not read as resolvers.
const handlers = {
  topUp: async (_: unknown, { input }: any) =>
    stripe.paymentIntents.create({ amount: input.cents, currency: "usd", customer: input.customer, confirm: true }), // want IDEM002
};
export { handlers };
