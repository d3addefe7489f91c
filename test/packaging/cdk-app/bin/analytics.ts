#!/usr/bin/env node
// The CDK app of this user project (as `cdk init app --language typescript` makes it): one stack.
import * as cdk from 'aws-cdk-lib';
import { AnalyticsStack } from '../lib/analytics-stack';

const app = new cdk.App();
new AnalyticsStack(app, 'AnalyticsStack');
