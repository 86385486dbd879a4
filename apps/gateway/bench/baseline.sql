-- PostgreSQL alone doing what an approved card charge asks of it (pgbench script; bench/baseline.ts
-- runs it with -c 20 -j 2 -M prepared, :accountId and :providerId set with -D). Three statements,
-- each its own transaction, as the gateway sends them: read the provider with its fees, insert the
-- charge PROCESSING (committed before the acquirer is called), then mark it SUCCESS if it is still
-- PROCESSING. No network round trip to an acquirer, no HTTP, no JavaScript: the gateway's ceiling.
SELECT p.*, (SELECT coalesce(json_agg(f), '[]') FROM "ProviderFee" f WHERE f."providerId" = p.id) AS fees
  FROM "Provider" p
  WHERE p.id = :providerId AND p."accountId" = :accountId AND p."dateRemoved" IS NULL;
INSERT INTO "Charge" (id, "accountId", "providerId", "attemptCount", status, currency, amount, "estimatedCost",
    "estimatedCostCurrency", "paymentType", "cardMasked", "cardIin", "cardScheme", "cardType", "cardExpiry",
    cardholder, "cardIssuer", "cardCountryCode", "cardCountry", reference)
  VALUES (md5(random()::text || clock_timestamp()::text), :accountId, :providerId, 1, 'PROCESSING', 'AUD', 1000, 20,
    'AUD', 'CARD', '411111******1111', '411111', 'Visa', 'CREDIT', '12/30', 'Bench Payer', 'Bench Bank', 'US',
    'United States', 'bench')
  RETURNING id \gset
UPDATE "Charge" SET status = 'SUCCESS', "providerChargeId" = 'pay_' || :id, "capturedAmount" = amount, "successDate" = now()
  WHERE id = :id AND status = 'PROCESSING';
