-- CreateTable
CREATE TABLE "UnknownOutcome" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "refundId" TEXT,
    "providerId" TEXT NOT NULL,
    "providerReference" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMPTZ(3),
    "resolution" TEXT,
    "resolvedBy" TEXT,

    CONSTRAINT "UnknownOutcome_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UnknownOutcome_accountId_resolvedAt_dateAdded_idx" ON "UnknownOutcome"("accountId", "resolvedAt", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "UnknownOutcome_chargeId_idx" ON "UnknownOutcome"("chargeId");

-- AddForeignKey
ALTER TABLE "UnknownOutcome" ADD CONSTRAINT "UnknownOutcome_chargeId_fkey" FOREIGN KEY ("chargeId") REFERENCES "Charge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
