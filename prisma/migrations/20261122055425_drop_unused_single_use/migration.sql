/*
  Warnings:

  - You are about to drop the column `singleUse` on the `PaymentMethod` table. All the data in the column will be lost.
  - You are about to drop the column `usedAt` on the `PaymentMethod` table. All the data in the column will be lost.

*/
-- AlterTable
ALTER TABLE "PaymentMethod" DROP COLUMN "singleUse",
DROP COLUMN "usedAt";
