-- A fee line prices charges in its own currency; the lines there are price the provider's currency.
ALTER TABLE "ProviderFee" ADD COLUMN "currency" TEXT;
UPDATE "ProviderFee" f SET "currency" = p."currency" FROM "Provider" p WHERE p."id" = f."providerId";
ALTER TABLE "ProviderFee" ALTER COLUMN "currency" SET NOT NULL;
